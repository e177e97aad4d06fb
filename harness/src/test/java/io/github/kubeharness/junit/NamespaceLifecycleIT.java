package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.NamespaceLifecycleScenarios;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult.Status;

/**
 * A passing test's namespace is deleted and the ClusterRoleBindings of rbac removed; a failed
 * test's namespace is kept with keepNamespaceOnFailure; a PER_CLASS class has one namespace and one
 * controller, both gone after it.
 */
class NamespaceLifecycleIT {

  @Test
  void namespacesLiveAsLongAsDocumented() {
    List<ScenarioRunner.Outcome> outcomes =
        ScenarioRunner.run(
            Map.of(
                "junit.jupiter.testclass.order.default",
                "org.junit.jupiter.api.ClassOrderer$OrderAnnotation"),
            NamespaceLifecycleScenarios.Passing.class,
            NamespaceLifecycleScenarios.KeptOnFailure.class,
            NamespaceLifecycleScenarios.PerClass.class,
            NamespaceLifecycleScenarios.Checker.class);

    assertThat(ScenarioRunner.onlyFailure(outcomes)).hasMessageContaining("fails on purpose");
    assertThat(outcomes)
        .filteredOn(o -> o.status() == Status.SUCCESSFUL)
        .extracting(ScenarioRunner.Outcome::displayName)
        .contains(
            "aPassingTestsNamespaceIsDeleted()",
            "theClusterRoleBindingsOfRbacAreRemoved()",
            "aFailedTestsNamespaceIsKeptWithItsObjects()",
            "aPerClassNamespaceHasOneControllerAndIsDeletedAfterTheClass()");
  }
}
