package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.MatrixTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.simulation.Simulation;

/**
 * Every {@link GuestbookBehaviour} test against a real API server of each of the three newest
 * Kubernetes minors, the operator running in-process as cluster admin. The {@code simulated}
 * profile runs the garbage collector (deletion), the workload controllers and KWOK's node (pods
 * that start and turn ready), and lets a test break a pod on purpose.
 */
// snippet:guestbook-it (docs/profiles.md, docs/versions.md)
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "simulated",
    kubernetesVersions = {"1.35", "1.36", "1.37"})
class GuestbookIT extends GuestbookBehaviour {

  Simulation simulation;

  @MatrixTest
  void aPodThatTurnsUnreadyDegradesTheGuestbookUntilItRecovers() {
    create("fragile", spec -> spec.setReplicas(2));
    eventually(guestbook("fragile")).hasCondition("Ready", "True");
    var selector = deployment("fragile").require().getSpec().getSelector().getMatchLabels();
    String name =
        client.pods().withLabels(selector).list().getItems().get(0).getMetadata().getName();
    Resource<Pod> pod = client.pods().withName(name);

    simulation.pod(pod).makeUnready();

    eventually(deployment("fragile"))
        .satisfies(d -> assertThat(d.getStatus().getReadyReplicas()).isEqualTo(1));
    Guestbook degraded =
        eventually(guestbook("fragile")).hasCondition("Degraded", "True", "ReplicasUnavailable");
    assertThat(degraded.getStatus().getReadyReplicas()).isEqualTo(1);
    assertThat(degraded.getStatus().condition("Ready").orElseThrow().getStatus())
        .isEqualTo("False");

    simulation.pod(pod).makeReady();

    eventually(guestbook("fragile")).hasCondition("Degraded", "False", "ReconcileSucceeded");
    eventually(guestbook("fragile")).hasCondition("Ready", "True");
  }
}
// end-snippet
