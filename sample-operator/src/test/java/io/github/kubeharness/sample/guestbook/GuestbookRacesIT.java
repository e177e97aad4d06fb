package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.faults.HeldEvents;
import io.github.kubeharness.faults.Watches;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.RaceTest;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;

/**
 * The operator under the race explorer: its Deployment's events (the workload controllers' status
 * updates included) and the Guestbook's edit held, then delivered in each seed's order. Every run
 * must converge to the edit, and pass the explorer's invariants: it settles without a hot loop, a
 * restarted operator writes nothing, no child is orphaned or made twice.
 */
@ControllerTest(
    crdClasses = Guestbook.class,
    reconcilers = GuestbookReconciler.class,
    profile = "simulated",
    backend = "local")
class GuestbookRacesIT {

  KubernetesClient client;
  Faults faults;

  @RaceTest(runs = 4)
  void anEditWhileTheDeploymentsEventsLagConverges() {
    Watches watches = faults.watches();
    HeldEvents deploymentEvents = watches.hold("deployments");
    Guestbook guestbook = Guestbook.named("gb");
    guestbook.getSpec().setReplicas(1);
    guestbook.getSpec().setMessage("first");
    client.resource(guestbook).create();
    await().until(deploymentEvents::count, held -> held >= 1); // the Deployment's ADDED

    HeldEvents guestbookEvents = watches.hold("guestbooks");
    SpecEdits.edit(
        guestbook("gb"),
        spec -> {
          spec.setMessage("second");
          spec.setReplicas(2);
        });
    await().until(guestbookEvents::count, held -> held >= 1); // the edit's MODIFIED
    watches.releaseAll();

    eventually(client.configMaps().withName("gb"))
        .satisfies(c -> assertThat(c.getData()).containsEntry("message", "second"));
    eventually(client.apps().deployments().withName("gb"))
        .satisfies(d -> assertThat(d.getSpec().getReplicas()).isEqualTo(2));
    eventually(guestbook("gb")).satisfies(ReadyStatus.readyWith(2));
  }

  private Resource<Guestbook> guestbook(String name) {
    return client.resources(Guestbook.class).withName(name);
  }
}
