package io.github.kubeharness.samples.greeting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.kubeharness.spring.EnableKubeHarness;
import io.github.kubeharness.spring.KubeHarness;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * One JVM, both kinds of test, one control plane: a {@code @ControllerTest} class run beside this
 * Spring context is given the context's API server, not a second one of its own, and when its run
 * lets go of it the control plane runs on for the context.
 */
@SpringBootTest
@EnableKubeHarness(profile = "standard", crdClasses = Greeting.class)
class OneControlPlaneIT {

  @Autowired KubeHarness kube;

  @Test
  void aControllerTestClassRunsOnTheSpringContextsControlPlane() {
    String ours = kube.controlPlane().apiServerUrl();

    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(ControllerTestScenario.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.started(1).succeeded(1));

    assertThat(ControllerTestScenario.apiServer).isEqualTo(ours);
    // The @ControllerTest run has ended and let go: the context's hold keeps it.
    assertThat(kube.controlPlane().isRunning()).isTrue();
    assertThat(kube.client().configMaps().list().getItems()).isNotNull();
  }
}
