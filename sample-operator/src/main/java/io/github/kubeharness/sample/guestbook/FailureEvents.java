package io.github.kubeharness.sample.guestbook;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a failed reconciliation as a Warning Event on the Guestbook, where {@code kubectl
 * describe guestbook} shows it. Uses {@code core/v1} Events, the API kubectl describe reads.
 */
final class FailureEvents {

  /** The Event source: who reports. */
  static final String COMPONENT = "guestbook-operator";

  private static final Logger LOG = LoggerFactory.getLogger(FailureEvents.class);

  private FailureEvents() {}

  /** Creates the Event; a failure to do so is logged, never thrown over the original error. */
  static void record(KubernetesClient client, Guestbook guestbook, ReconcileFailure failure) {
    String now = Instant.now().toString();
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withGenerateName(guestbook.getMetadata().getName() + ".")
            .withNamespace(guestbook.getMetadata().getNamespace())
            .endMetadata()
            .withNewInvolvedObject()
            .withApiVersion(guestbook.getApiVersion())
            .withKind(guestbook.getKind())
            .withName(guestbook.getMetadata().getName())
            .withNamespace(guestbook.getMetadata().getNamespace())
            .withUid(guestbook.getMetadata().getUid())
            .endInvolvedObject()
            .withType("Warning")
            .withReason(failure.reason())
            .withMessage(failure.message())
            .withCount(1)
            .withFirstTimestamp(now)
            .withLastTimestamp(now)
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .build();
    try {
      client
          .v1()
          .events()
          .inNamespace(guestbook.getMetadata().getNamespace())
          .resource(event)
          .create();
    } catch (KubernetesClientException e) {
      LOG.warn(
          "Cannot record Event {} for Guestbook {}/{}: {}",
          failure.reason(),
          guestbook.getMetadata().getNamespace(),
          guestbook.getMetadata().getName(),
          e.getMessage());
    }
  }
}
