package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.junit.scenarios.BadInputScenarios;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each misconfiguration fails with a message naming the file/attribute, the problem and the fix.
 */
class BadInputIT {

  static java.util.stream.Stream<Arguments> scenarios() {
    return java.util.stream.Stream.of(
        Arguments.of(
            BadInputScenarios.MissingCrdPath.class,
            new String[] {
              "crds entry 'src/test/resources/no/such/dir' does not exist", "classpath:"
            }),
        Arguments.of(
            BadInputScenarios.InvalidYaml.class,
            new String[] {"not-yaml.yaml is not valid YAML at line"}),
        Arguments.of(
            BadInputScenarios.NotACrd.class,
            new String[] {"not-a-crd.yaml holds a ConfigMap, not a CustomResourceDefinition"}),
        Arguments.of(
            BadInputScenarios.NeverEstablished.class,
            new String[] {
              "gadgets.test.kubeharness.io did not become Established", "NamesAccepted=False"
            }),
        Arguments.of(
            BadInputScenarios.CrdClassWithoutGeneratedYaml.class,
            new String[] {
              "No generated CRD for",
              "META-INF/fabric8/nogeneratedcrds.test.kubeharness.io-v1.yml",
              "crd-generator-maven-plugin"
            }),
        Arguments.of(
            BadInputScenarios.ReconcilerFailsToStart.class,
            new String[] {"ExplodingReconciler threw", "no config for the exploding reconciler"}),
        Arguments.of(
            BadInputScenarios.NoUsableConstructor.class,
            new String[] {
              "reconcilers entry",
              "NoUsableConstructorReconciler cannot be instantiated",
              "no-argument constructor or one taking a KubernetesClient"
            }),
        Arguments.of(
            BadInputScenarios.MisspeltBindingSubject.class,
            new String[] {
              "ClusterRoleBinding widget-controller",
              "binds ServiceAccount 'widget-controler'",
              "the controllers run as ServiceAccount 'widget-controller'"
            }),
        Arguments.of(
            BadInputScenarios.ServiceAccountNoBindingNames.class,
            new String[] {
              "binds ServiceAccount 'widget-controller'",
              "the controllers run as ServiceAccount 'controller-manager'",
              "serviceAccount"
            }),
        Arguments.of(
            BadInputScenarios.RbacWithoutControllers.class,
            new String[] {"sets rbac but no reconcilers or controllers"}),
        Arguments.of(
            BadInputScenarios.UnknownProfile.class,
            new String[] {"Unknown profile 'maximal'", "minimal, standard"}),
        Arguments.of(
            BadInputScenarios.OperatorWithoutReconcilers.class,
            new String[] {
              "Cannot inject io.javaoperatorsdk.operator.Operator", "no such controller"
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void misconfigurationFailsWithAClearMessage(Class<?> scenario, String[] expected) {
    Throwable failure = ScenarioRunner.onlyFailure(ScenarioRunner.run(scenario));
    assertThat(ScenarioRunner.fullMessage(failure)).contains(expected);
  }
}
