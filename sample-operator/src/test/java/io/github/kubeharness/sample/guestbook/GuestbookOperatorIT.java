package io.github.kubeharness.sample.guestbook;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The operator's runtime — what {@code main} does — against a real API server: connect, serve
 * /healthz and /readyz from JOSDK's state, elect a leader through a Lease, reconcile, stop.
 */
@ControllerTest(crdClasses = Guestbook.class, profile = "standard")
class GuestbookOperatorIT {

  KubernetesClient client;
  @TestNamespace String namespace;
  ControlPlane controlPlane;

  @Test
  void servesProbesElectsALeaderReconcilesAndStops() throws Exception {
    OperatorSettings settings =
        new OperatorSettings(
            new InetSocketAddress("127.0.0.1", 0), true, namespace, Set.of(namespace));
    InetSocketAddress probes;
    try (GuestbookOperator operator = GuestbookOperator.start(settings, controlPlane.newClient())) {
      probes = operator.probeAddress();
      assertThat(Probes.get(probes, "/readyz")).isEqualTo("200 ok");
      assertThat(Probes.get(probes, "/healthz")).isEqualTo("200 ok");

      eventually(client.resources(Lease.class).withName(GuestbookOperator.LEASE_NAME))
          .satisfies(lease -> assertThat(lease.getSpec().getHolderIdentity()).isNotBlank());
      client.resource(Guestbook.named("running")).create();
      eventually(client.apps().deployments().withName("running")).exists();
    }

    assertThatThrownBy(() -> Probes.get(probes, "/healthz")).isInstanceOf(IOException.class);
  }

  @Test
  void anIdentityWithoutRightsFailsTheStartWithTheFix() {
    // a user no RBAC rule mentions: listing Guestbooks is forbidden
    KubernetesClient nobody = controlPlane.addUser("nobody", List.of()).newClient();
    OperatorSettings settings =
        new OperatorSettings(new InetSocketAddress("127.0.0.1", 0), false, null, Set.of(namespace));

    assertThatThrownBy(() -> GuestbookOperator.start(settings, nobody))
        .hasMessageContaining("The Guestbook operator could not start")
        .hasMessageContaining("forbidden")
        .hasMessageContaining("config/rbac");
  }
}
