package io.github.kubeharness.junit.scenarios;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.MatrixTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Version matrices for KubernetesVersionsIT. On the local backend whatever the suite's backend is:
 * the versions are built from Go modules, which only the local backend runs as they are.
 */
public final class MatrixScenarios {

  /**
   * What each run saw: {@code <test> <version the ControlPlane says> <version the server says>}.
   */
  public static final List<String> SEEN = new CopyOnWriteArrayList<>();

  private MatrixScenarios() {}

  /**
   * Two versions that can be had (a minor, resolved to its newest patch, and a full version) and
   * one that cannot: a patch the Go module proxy does not serve.
   */
  @ControllerTest(
      backend = "local",
      crds = "src/test/resources/crds",
      reconcilers = WidgetReconciler.class,
      kubernetesVersions = {"1.36", "1.37.2", "1.36.99"})
  public static class ThreeVersionsScenario {

    KubernetesClient client;
    ControlPlane controlPlane;

    @MatrixTest
    void reconcilesOnEachVersion() {
      SEEN.add(
          "reconcilesOnEachVersion "
              + controlPlane.kubernetesVersion()
              + " "
              + client.getKubernetesVersion().getGitVersion());
      client.resources(Widget.class).resource(Widget.named("w", "hello")).create();
      eventually(client.configMaps().withName("w"))
          .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "hello"));
    }

    @MatrixTest
    void failsOnlyOn136() {
      client.resources(Widget.class).resource(Widget.named("w", "hello")).create();
      eventually(client.configMaps().withName("w")).exists();
      assertThat(controlPlane.kubernetesVersion())
          .as("this test breaks on 1.36 on purpose")
          .doesNotStartWith("1.36.");
    }
  }

  /** A matrix the setting {@code kubeharness.kubernetes.versions} narrows. */
  @ControllerTest(
      backend = "local",
      kubernetesVersions = {"1.36", "1.37"})
  public static class NarrowedScenario {

    ControlPlane controlPlane;

    @MatrixTest
    void runs() {
      SEEN.add("runs " + controlPlane.kubernetesVersion());
    }
  }

  /** A plain {@code @Test} in a class with a matrix: it would run on one version only. */
  @ControllerTest(
      backend = "local",
      kubernetesVersions = {"1.37"})
  public static class PlainTestInAMatrixScenario {

    @Test
    void plain() {}
  }
}
