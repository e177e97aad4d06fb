package io.github.kubeharness.junit.scenarios;

import io.github.kubeharness.faults.Faults;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.MatrixTest;
import org.junit.jupiter.api.Test;

/**
 * Test classes that ask a backend for what it does not offer (faults, webhooks served by the JVM, a
 * version matrix): each must fail once, before a cluster starts, naming the backends that can.
 */
public final class CapabilityScenarios {

  private CapabilityScenarios() {}

  /** Asks for faults: a field of type {@link Faults}. */
  public abstract static class WithFaults {
    Faults faults;

    @Test
    void test() {}
  }

  @ControllerTest(backend = "container")
  public static class FaultsOnContainer extends WithFaults {}

  @ControllerTest(backend = "k3s")
  public static class FaultsOnK3s extends WithFaults {}

  @ControllerTest(backend = "kind")
  public static class FaultsOnKind extends WithFaults {}

  @ControllerTest(backend = "existing")
  public static class FaultsOnExisting extends WithFaults {}

  /** Serves webhooks from the test JVM. */
  public abstract static class WithWebhooks {
    @Test
    void test() {}
  }

  /** Run with kubeharness.network=bridge: its API server cannot reach this machine's loopback. */
  @ControllerTest(
      backend = "container",
      webhooks = "src/test/resources/webhooks/broken",
      webhookHandlers = WebhookScenarios.BrokenHandlers.class)
  public static class WebhooksOnContainerBridge extends WithWebhooks {}

  @ControllerTest(
      backend = "k3s",
      webhooks = "src/test/resources/webhooks/broken",
      webhookHandlers = WebhookScenarios.BrokenHandlers.class)
  public static class WebhooksOnK3s extends WithWebhooks {}

  @ControllerTest(
      backend = "kind",
      webhooks = "src/test/resources/webhooks/broken",
      webhookHandlers = WebhookScenarios.BrokenHandlers.class)
  public static class WebhooksOnKind extends WithWebhooks {}

  @ControllerTest(
      backend = "existing",
      webhooks = "src/test/resources/webhooks/broken",
      webhookHandlers = WebhookScenarios.BrokenHandlers.class)
  public static class WebhooksOnExisting extends WithWebhooks {}

  @ControllerTest(
      backend = "existing",
      kubernetesVersions = {"1.36.3", "1.37.2"})
  public static class MatrixOnExisting {
    @MatrixTest
    void test() {}
  }

  @ControllerTest(backend = "kind", profile = "minimal")
  public static class MinimalProfileOnKind {
    @Test
    void test() {}
  }
}
