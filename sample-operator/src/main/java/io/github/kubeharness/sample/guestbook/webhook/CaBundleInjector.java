package io.github.kubeharness.sample.guestbook.webhook;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the webhook CA into the deployed configurations' {@code caBundle} and into the Guestbook
 * CRD's conversion webhook, so that the API server trusts the operator's certificate. Run at every
 * start (the CA can change when the Secret is replaced); a configuration that is not deployed is
 * skipped with a log line, the webhooks being optional.
 */
public final class CaBundleInjector {

  private static final Logger LOG = LoggerFactory.getLogger(CaBundleInjector.class);

  private CaBundleInjector() {}

  public static void inject(
      KubernetesClient client, String caPem, String mutating, String validating, String crd) {
    String bundle = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8));
    var mutatingConfig =
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(mutating);
    if (mutatingConfig.get() == null) {
      LOG.warn(
          "MutatingWebhookConfiguration {} is not deployed: not injecting its caBundle", mutating);
    } else {
      mutatingConfig.edit(
          c -> {
            c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(bundle));
            return c;
          });
    }
    var validatingConfig =
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(validating);
    if (validatingConfig.get() == null) {
      LOG.warn(
          "ValidatingWebhookConfiguration {} is not deployed: not injecting its caBundle",
          validating);
    } else {
      validatingConfig.edit(
          c -> {
            c.getWebhooks().forEach(w -> w.getClientConfig().setCaBundle(bundle));
            return c;
          });
    }
    var definition = client.apiextensions().v1().customResourceDefinitions().withName(crd);
    CustomResourceDefinition current = definition.get();
    if (current == null
        || current.getSpec().getConversion() == null
        || !"Webhook".equals(current.getSpec().getConversion().getStrategy())) {
      LOG.warn("CRD {} does not convert by webhook: not injecting its caBundle", crd);
    } else {
      definition.edit(
          c -> {
            c.getSpec().getConversion().getWebhook().getClientConfig().setCaBundle(bundle);
            return c;
          });
    }
    LOG.info("Webhook CA injected into {}", List.of(mutating, validating, crd));
  }
}
