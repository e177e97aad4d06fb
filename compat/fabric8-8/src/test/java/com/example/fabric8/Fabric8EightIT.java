package com.example.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.example.fabric8.scenarios.MirrorScenario;
import io.fabric8.kubernetes.client.Version;
import java.util.List;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A fabric8 8 project's @ControllerTest class is refused up front: one failure, from the
 * extension's configuration check, naming what was found, the supported range and the fix; no test
 * of it runs against a half-started harness.
 */
class Fabric8EightIT {

  @Test
  void thisModuleRunsFabric8Eight() {
    assertThat(Version.clientVersion()).as("the fabric8 client on this classpath").startsWith("8.");
  }

  @Test
  void aControllerTestClassIsRefusedWithTheSupportedRangeAndTheFix() {
    EngineExecutionResults results =
        EngineTestKit.engine("junit-jupiter")
            .selectors(selectClass(MirrorScenario.class))
            .execute();

    List<Throwable> failures =
        results.containerEvents().failed().stream()
            .flatMap(
                e ->
                    e
                        .getPayload(TestExecutionResult.class)
                        .flatMap(TestExecutionResult::getThrowable)
                        .stream())
            .toList();
    assertThat(failures)
        .as("the class fails once, in the extension's check, not deep inside the harness")
        .singleElement(InstanceOfAssertFactories.THROWABLE)
        .isInstanceOf(ExtensionConfigurationException.class)
        .hasNoCause()
        .message()
        .contains("kubernetes-client 8.0.0")
        .contains("supports fabric8 kubernetes-client 7.x from 7.3")
        .contains("Jackson 3")
        .contains("import io.fabric8:kubernetes-client-bom 7.5.2");
    assertThat(results.testEvents().started().count())
        .as("tests of the refused class run")
        .isZero();
  }
}
