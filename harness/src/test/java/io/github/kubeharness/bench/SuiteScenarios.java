package io.github.kubeharness.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.MatrixTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The suites of {@link SuiteChild}: a first test class alone, and six classes on three profiles
 * times three versions (each profile's class twice, in the order minimal, standard, simulated, then
 * again), the shape of a suite with a version matrix and several profiles.
 */
public final class SuiteScenarios {

  private SuiteScenarios() {}

  /** The first class of a run: one test that asks the API server something. */
  @ControllerTest(profile = "minimal")
  public static class FirstTestScenario {
    KubernetesClient client;

    @Test
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(1)
  @ControllerTest(
      profile = "minimal",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class MinimalFirstScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(2)
  @ControllerTest(
      profile = "standard",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class StandardFirstScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(3)
  @ControllerTest(
      profile = "simulated",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class SimulatedFirstScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(4)
  @ControllerTest(
      profile = "minimal",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class MinimalAgainScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(5)
  @ControllerTest(
      profile = "standard",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class StandardAgainScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }

  @Order(6)
  @ControllerTest(
      profile = "simulated",
      kubernetesVersions = {"1.35.4", "1.36.3", "1.37.2"})
  public static class SimulatedAgainScenario {
    KubernetesClient client;

    @MatrixTest
    void listsNamespaces() {
      client.namespaces().list();
    }
  }
}
