package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec;
import org.junit.jupiter.api.Test;

/**
 * Kept on purpose: the Guestbook's readiness tested the way envtest users must, on a control plane
 * where nothing runs pods ({@code standard}: no scheduler, no Deployment controller, no node), by
 * writing the Deployment's status as the kubelet and the Deployment controller would. It shows the
 * technique, and that the operator reads only the status, not how it came about. The rest of the
 * suite gets its ready replicas from pods that start ({@link GuestbookIT}, {@link
 * GuestbookOnKindIT}).
 */
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "standard")
class GuestbookStatusByHandIT {

  KubernetesClient client;

  @Test
  void becomesReadyWhenTheDeploymentStatusIsWrittenByHand() {
    Guestbook guestbook = Guestbook.named("by-hand");
    guestbook.getSpec().setReplicas(2);
    client.resource(guestbook).create();
    eventually(client.resources(Guestbook.class).withName("by-hand"))
        .hasCondition("Progressing", "True", "WaitingForReplicas");

    client
        .apps()
        .deployments()
        .withName("by-hand")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"status\":{\"replicas\":2,\"readyReplicas\":2,\"availableReplicas\":2,"
                + "\"updatedReplicas\":2}}");

    Guestbook ready =
        eventually(client.resources(Guestbook.class).withName("by-hand"))
            .hasCondition("Ready", "True", "ReplicasReady");
    assertThat(ready.getStatus().getReadyReplicas()).isEqualTo(2);
    assertThat(
            client
                .apps()
                .deployments()
                .withName("by-hand")
                .get()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0)
                .getImage())
        .isEqualTo(GuestbookSpec.DEFAULT_IMAGE);
  }
}
