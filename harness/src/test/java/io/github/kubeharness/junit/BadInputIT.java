package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BadInputChild;
import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.FaultRule;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.junit.scenarios.BadInputScenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input across the public surface, as one table: annotation attributes, CRD and RBAC files,
 * settings, binaries, Docker, the CLI, the existing backend's kubeconfig and fault rules. Each
 * row's failure must name the culprit and the fix, and leave nothing running: no child process and
 * no run directory of this JVM beyond what was there before.
 */
class BadInputIT {

  /** Annotation attributes and the CRD, RBAC and class files they name: a test class each. */
  static Stream<Arguments> annotationAndFiles() {
    return Stream.of(
        scenario(
            BadInputScenarios.MissingCrdPath.class,
            new String[] {
              "crds entry 'src/test/resources/no/such/dir' does not exist", "classpath:"
            }),
        scenario(
            BadInputScenarios.InvalidYaml.class,
            new String[] {"not-yaml.yaml is not valid YAML at line"}),
        scenario(
            BadInputScenarios.NotACrd.class,
            new String[] {"not-a-crd.yaml holds a ConfigMap, not a CustomResourceDefinition"}),
        scenario(
            BadInputScenarios.NeverEstablished.class,
            new String[] {
              "gadgets.test.kubeharness.io did not become Established", "NamesAccepted=False"
            }),
        scenario(
            BadInputScenarios.CrdClassWithoutGeneratedYaml.class,
            new String[] {
              "No generated CRD for",
              "META-INF/fabric8/nogeneratedcrds.test.kubeharness.io-v1.yml",
              "crd-generator-maven-plugin"
            }),
        scenario(
            BadInputScenarios.ReconcilerFailsToStart.class,
            new String[] {"ExplodingReconciler threw", "no config for the exploding reconciler"}),
        scenario(
            BadInputScenarios.NoUsableConstructor.class,
            new String[] {
              "reconcilers entry",
              "NoUsableConstructorReconciler cannot be instantiated",
              "no-argument constructor or one taking a KubernetesClient"
            }),
        scenario(
            BadInputScenarios.MisspeltBindingSubject.class,
            new String[] {
              "ClusterRoleBinding widget-controller",
              "binds ServiceAccount 'widget-controler'",
              "the controllers run as ServiceAccount 'widget-controller'"
            }),
        scenario(
            BadInputScenarios.ServiceAccountNoBindingNames.class,
            new String[] {
              "binds ServiceAccount 'widget-controller'",
              "the controllers run as ServiceAccount 'controller-manager'",
              "serviceAccount"
            }),
        scenario(
            BadInputScenarios.RbacWithoutControllers.class,
            new String[] {"sets rbac but no reconcilers or controllers"}),
        scenario(
            BadInputScenarios.UnknownProfile.class,
            new String[] {"Unknown profile 'maximal'", "minimal, standard"}),
        scenario(
            BadInputScenarios.OperatorWithoutReconcilers.class,
            new String[] {
              "Cannot inject io.javaoperatorsdk.operator.Operator", "no such controller"
            }));
  }

  /** Settings, binaries, Docker, the CLI, the existing backend and fault rules. */
  static Stream<Arguments> everythingElse() {
    return Stream.of(
        setting(Settings.START_TIMEOUT_SECONDS, "abc", "'abc'", "positive number of seconds"),
        setting(Settings.OFFLINE, "yes", "kubeharness.offline", "true or false"),
        setting(Settings.NETWORK, "wifi", "Unknown network mode 'wifi'", "bridge, host"),
        setting(Settings.BACKEND, "cloud", "'cloud'", "local"),
        setting(Settings.SIMULATED_NODES, "0", "kubeharness.simulated.nodes", "'0'"),
        setting(
            Settings.SIMULATED_POD_START_SECONDS, "-1", "kubeharness.simulated.pod.start.seconds"),
        row(
            "Kubernetes version not MAJOR.MINOR.PATCH",
            () -> start(ControlPlaneOptions.builder().withKubernetesVersion("1.37").build()),
            "'1.37' is not of the form MAJOR.MINOR.PATCH",
            "for example"),
        row(
            "container image neither present nor pullable",
            () -> {
              try (var image =
                  TemporaryProperty.set(
                      Settings.CONTAINER_APISERVER_IMAGE,
                      "registry.k8s.io/kube-apiserver:v0.0.0-absent")) {
                return start(
                    ControlPlaneOptions.builder()
                        .withBackend(Backend.CONTAINER)
                        .withProfile(Profile.MINIMAL)
                        .build());
              }
            },
            "registry.k8s.io/kube-apiserver:v0.0.0-absent",
            "make images"),
        row(
            "existing backend, kubeconfig missing",
            () -> child(Map.of("KUBECONFIG", "/nonexistent/kubeconfig"), Backend.EXISTING),
            "/nonexistent/kubeconfig cannot be read",
            "Set KUBECONFIG"),
        row("CLI: unknown command", () -> cli("frobnicate"), "frobnicate", "Usage"),
        row(
            "CLI: unknown profile",
            () -> cli("up", "--profile", "maximal"),
            "Invalid value for option '--profile'",
            "but was 'maximal'",
            "MINIMAL, STANDARD, SIMULATED"),
        row("CLI: unknown option", () -> cli("provision", "--turbo"), "--turbo", "Usage"),
        row(
            "fault rule: unknown verb",
            () -> FaultRule.requests().verbs("gett"),
            "Unknown verb 'gett'",
            "use one of"),
        row("fault rule: times(0)", () -> FaultRule.requests().times(0), "times(0)", "1 or more"),
        row(
            "fault rule: probability 1.5",
            () -> FaultRule.requests().probability(1.5),
            "probability(1.5)",
            "above 0 and at most 1"),
        row(
            "fault rule: Retry-After of 0",
            () -> FaultRule.requests().throttle(Duration.ZERO),
            "throttle(PT0S)",
            "whole seconds, 1 or more"),
        row(
            "fault rule: delay of 0",
            () -> FaultRule.requests().delay(Duration.ZERO),
            "delay(PT0S)",
            "positive delay"),
        row(
            "fault rule: resource with its group",
            () -> FaultRule.requests().resource("guestbooks.webapp.example.com"),
            "guestbooks.webapp.example.com",
            "without its group"),
        row(
            "fault rule without a response",
            () -> local.faults().respond(FaultRule.requests().verbs("get")),
            "has no response",
            "conflict(), throttle(retryAfter)"),
        row(
            "apiServerDown with a negative time",
            () -> {
              local.faults().apiServerDown(Duration.ofSeconds(-1));
              return "returned";
            },
            "apiServerDown(PT-1S)",
            "give 0 or more"),
        row(
            "faults on a backend without the proxy",
            () -> ControlPlane.create(existing()).faults(),
            "only the local backend",
            "backend = \"local\""));
  }

  private static ControlPlane local;
  private static Set<Long> childrenBefore;
  private static List<Path> runDirectoriesBefore;

  @BeforeAll
  static void startOneLocalControlPlane() {
    Watchdog.get(); // started on first use: not a leftover of a row
    local = ControlPlane.local(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build());
    local.start();
    childrenBefore = children();
    runDirectoriesBefore = runDirectories();
  }

  @AfterAll
  static void stop() {
    local.stop();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"annotationAndFiles", "everythingElse"})
  void badInputFailsNamingTheCulpritAndTheFixAndLeavesNothingRunning(
      String culprit, Callable<String> failure, String[] expected) throws Exception {
    String message = failure.call();

    assertThat(message).as(culprit).contains(expected);
    assertThat(children()).as("child processes after: " + culprit).isEqualTo(childrenBefore);
    assertThat(runDirectories())
        .as("run directories after: " + culprit)
        .containsExactlyInAnyOrderElementsOf(runDirectoriesBefore);
  }

  private static Arguments scenario(Class<?> scenario, String[] expected) {
    return Arguments.of(
        scenario.getSimpleName(),
        (Callable<String>)
            () ->
                ScenarioRunner.fullMessage(
                    ScenarioRunner.onlyFailure(ScenarioRunner.run(scenario))),
        expected);
  }

  private static Arguments row(String culprit, Callable<Object> action, String... expected) {
    return Arguments.of(
        culprit,
        (Callable<String>)
            () -> {
              try {
                Object result = action.call();
                return "no failure: " + result;
              } catch (Exception e) {
                return e.getMessage();
              }
            },
        expected);
  }

  private static Arguments setting(String property, String value, String... expected) {
    return row(
        property + "=" + value,
        () -> {
          try (var setting = TemporaryProperty.set(property, value)) {
            return ControlPlaneOptions.defaults();
          }
        },
        expected);
  }

  private static Object start(ControlPlaneOptions options) {
    try (ControlPlane controlPlane = ControlPlane.create(options)) {
      controlPlane.start();
      return "started";
    }
  }

  private static ControlPlaneOptions existing() {
    return ControlPlaneOptions.builder().withBackend(Backend.EXISTING).build();
  }

  /** The row's failure as a child JVM with {@code environment} prints it. */
  private static Object child(Map<String, String> environment, Backend backend) throws Exception {
    try (ChildJvm child =
        ChildJvm.start(environment, List.of(), BadInputChild.class.getName(), backend.name())) {
      String line =
          child.awaitLine(
              l -> l.startsWith("FAILED ") || l.equals("STARTED"), Duration.ofMinutes(2));
      child.process().waitFor(30, TimeUnit.SECONDS);
      throw new IllegalStateException(line);
    }
  }

  /** The CLI's output for bad arguments; it must exit with 2. */
  private static Object cli(String... args) throws Exception {
    try (ChildJvm child = ChildJvm.cli(args)) {
      child.process().waitFor(1, TimeUnit.MINUTES);
      String output = child.readToEnd(Duration.ofMinutes(1));
      throw new IllegalStateException("exit " + child.process().exitValue() + ": " + output);
    }
  }

  private static Set<Long> children() {
    return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
  }

  // Those of this JVM: the shared control planes of other classes in this JVM stay, as before.
  private static List<Path> runDirectories() {
    String prefix = "run-" + ProcessHandle.current().pid() + "-";
    try (Stream<Path> runs = Files.list(RunDirectory.defaultRoot())) {
      return runs.filter(r -> r.getFileName().toString().startsWith(prefix)).toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
