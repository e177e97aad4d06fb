package io.github.kubeharness.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BadInputChild;
import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.TemporaryProperty;
import io.github.kubeharness.faults.FaultRule;
import io.github.kubeharness.internal.process.RunDirectory;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.junit.scenarios.BadInputScenarios;
import io.github.kubeharness.junit.scenarios.CapabilityScenarios;
import io.github.kubeharness.junit.scenarios.MultiClusterScenarios;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.SettingsResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input across the public surface, as one table: annotation attributes, CRD and RBAC files,
 * settings, binaries, Docker, the CLI, the existing backend's kubeconfig and fault rules. Each
 * row's failure must name the culprit, what was wrong with it and the fix (the CLI's must also exit
 * with 2, a usage error), and leave nothing running: no child process and no run directory of this
 * JVM beyond what was there before.
 */
class BadInputIT {

  /** Annotation attributes and the CRD, RBAC and class files they name: a test class each. */
  static Stream<Arguments> annotationAndFiles() {
    return Stream.of(
        scenario(
            BadInputScenarios.MissingCrdPath.class,
            expect(
                "crds entry 'src/test/resources/no/such/dir'",
                "does not exist",
                "use classpath: for resources")),
        scenario(
            BadInputScenarios.InvalidYaml.class,
            expect(
                "not-yaml.yaml",
                "is not valid YAML at line 5",
                "Correct the file there, or leave it out of the manifests")),
        scenario(
            BadInputScenarios.NotACrd.class,
            expect(
                "not-a-crd.yaml",
                "holds a ConfigMap, not a CustomResourceDefinition",
                "List CRD files in crds")),
        scenario(
            BadInputScenarios.NeverEstablished.class,
            expect(
                "gadgets.test.kubeharness.io",
                "did not become Established and served within 30 s. Its conditions:"
                    + " NamesAccepted=False (ListKindConflict",
                "Check the CRD's names and schema")),
        scenario(
            BadInputScenarios.CrdClassWithoutGeneratedYaml.class,
            expect(
                "No generated CRD for io.github.kubeharness.junit.scenarios.BadInputScenarios"
                    + "$NoGeneratedCrd",
                "expected the classpath resource"
                    + " META-INF/fabric8/nogeneratedcrds.test.kubeharness.io-v1.yml",
                "Add fabric8's crd-generator-maven-plugin")),
        scenario(
            BadInputScenarios.ReconcilerFailsToStart.class,
            expect(
                "ExplodingReconciler",
                "threw: java.lang.IllegalStateException: no config for the exploding reconciler",
                "Fix the constructor or the configuration it reads")),
        scenario(
            MultiClusterScenarios.ClusterNameNotADnsLabel.class,
            expect(
                "clusters entry 'Edge_1'",
                "is not a lower-case DNS label",
                "Rename it, e.g. \"edge-1\"")),
        scenario(
            MultiClusterScenarios.PlacedOnAnUndeclaredCluster.class,
            expect(
                "@ClusterControllers(cluster = \"edge-2\")",
                "names no cluster of @ControllerTest(clusters = [hub, edge-1])",
                "use one of those names")),
        scenario(
            MultiClusterScenarios.InjectsAnUndeclaredCluster.class,
            expect(
                "There is no cluster 'edge-9'",
                "its clusters are [hub, edge-1]",
                "@ControllerTest(clusters) on InjectsAnUndeclaredCluster")),
        scenario(
            BadInputScenarios.NoUsableConstructor.class,
            expect(
                "reconcilers entry io.github.kubeharness.junit.scenarios.BadInputScenarios"
                    + "$NoUsableConstructorReconciler",
                "cannot be instantiated",
                "a concrete class with a no-argument constructor or one taking a"
                    + " KubernetesClient")),
        scenario(
            BadInputScenarios.MisspeltBindingSubject.class,
            expect(
                "ClusterRoleBinding widget-controller",
                "binds ServiceAccount 'widget-controler', but the controllers run as"
                    + " ServiceAccount 'widget-controller'",
                "Fix the subject's name")),
        scenario(
            BadInputScenarios.ServiceAccountNoBindingNames.class,
            expect(
                "ClusterRoleBinding widget-controller",
                "binds ServiceAccount 'widget-controller', but the controllers run as"
                    + " ServiceAccount 'controller-manager'",
                "Fix the subject's name or serviceAccount")),
        scenario(
            BadInputScenarios.RbacWithoutControllers.class,
            expect(
                "BadInputScenarios$RbacWithoutControllers",
                "sets rbac but no reconcilers or controllers",
                "Add reconcilers = or controllers =, or remove rbac")),
        scenario(
            BadInputScenarios.UnknownProfile.class,
            expect(
                "'maximal'", "Unknown profile", "Expected one of: minimal, standard, simulated")),
        scenario(
            BadInputScenarios.OperatorWithoutReconcilers.class,
            expect(
                "Cannot inject io.javaoperatorsdk.operator.Operator",
                "no such controller is running",
                "Injectable: KubernetesClient")));
  }

  /** Settings, binaries, Docker, the CLI, the existing backend and fault rules. */
  static Stream<Arguments> everythingElse() {
    return Stream.of(
        setting(
            Settings.START_TIMEOUT_SECONDS,
            "abc",
            "Invalid value 'abc'",
            "expected a positive number of seconds"),
        setting(Settings.OFFLINE, "yes", "Invalid value 'yes'", "expected true or false"),
        setting(
            Settings.NETWORK,
            "wifi",
            "Unknown network mode 'wifi'",
            "Expected one of: bridge, host"),
        setting(
            Settings.BACKEND, "cloud", "Unknown backend 'cloud'", "Expected one of: auto, local"),
        localSetting(
            Settings.SIMULATED_NODES,
            "0",
            "Invalid value '0'",
            "expected a whole number greater than 0"),
        localSetting(
            Settings.SIMULATED_POD_START_SECONDS,
            "-1",
            "Invalid value '-1'",
            "expected a positive number of seconds"),
        row(
            "Kubernetes version not MAJOR.MINOR.PATCH",
            () -> start(ControlPlaneOptions.builder().withKubernetesVersion("1.37").build()),
            expect(
                "Kubernetes version '1.37'",
                "is not of the form MAJOR.MINOR.PATCH",
                "Fix system property kubeharness.kubernetes.version")),
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
            expect(
                "Image registry.k8s.io/kube-apiserver:v0.0.0-absent",
                "is neither present in the local Docker nor pullable",
                "make images")),
        row(
            "existing backend, kubeconfig missing",
            () -> child(Map.of("KUBECONFIG", "/nonexistent/kubeconfig"), Backend.EXISTING),
            expect(
                "/nonexistent/kubeconfig",
                "The existing backend needs a kubeconfig, but",
                "Set KUBECONFIG, or use the local backend")),
        row(
            "fault rule: unknown verb",
            () -> FaultRule.requests().verbs("gett"),
            expect("'gett'", "Unknown verb", "in a FaultRule: use one of")),
        row(
            "fault rule: times(0)",
            () -> FaultRule.requests().times(0),
            expect("FaultRule.times(0)", "times(0)", "give 1 or more")),
        row(
            "fault rule: probability 1.5",
            () -> FaultRule.requests().probability(1.5),
            expect("FaultRule.probability", "(1.5)", "give a value above 0 and at most 1")),
        row(
            "fault rule: Retry-After of 0",
            () -> FaultRule.requests().throttle(Duration.ZERO),
            expect("FaultRule.throttle", "(PT0S)", "whole seconds, 1 or more")),
        row(
            "fault rule: delay of 0",
            () -> FaultRule.requests().delay(Duration.ZERO),
            expect("FaultRule.delay", "(PT0S)", "give a positive delay")),
        row(
            "fault rule: resource with its group",
            () -> FaultRule.requests().resource("guestbooks.webapp.example.com"),
            expect(
                "FaultRule resource 'guestbooks.webapp.example.com'",
                "'guestbooks.webapp.example.com'",
                "name the plural resource without its group")),
        row(
            "fault rule without a response",
            () -> local.faults().respond(FaultRule.requests().verbs("get")),
            expect(
                "FaultRule (no response) for get",
                "has no response",
                "finish it with conflict(), throttle(retryAfter)")),
        row(
            "apiServerDown with a negative time",
            () -> {
              local.faults().apiServerDown(Duration.ofSeconds(-1));
              return "returned";
            },
            expect("apiServerDown", "(PT-1S)", "give 0 or more")),
        row(
            "faults on a backend without the proxy",
            () -> ControlPlanes.create(existing()).faults(),
            expect(
                "faults(): the existing backend",
                "cannot give faults",
                "Backends that can: local. Use one of them (@ControllerTest(backend = \"local\")")));
  }

  /**
   * Every backend x profile x feature combination the enums declare impossible ({@link
   * Backend#profiles()}, {@link Backend#supports}): refused once, before anything starts, naming
   * the backends that can. {@code backendCapabilitiesAreTheOnesTheseRowsCover} keeps the table and
   * the declarations together.
   */
  static Stream<Arguments> impossibleCombinations() {
    return Stream.of(
        profile(Backend.CONTAINER, Profile.SIMULATED, "local", "minimal or standard"),
        profile(Backend.K3S, Profile.MINIMAL, "local or container", "standard"),
        profile(Backend.K3S, Profile.SIMULATED, "local", "standard"),
        profile(Backend.KIND, Profile.MINIMAL, "local or container", "standard"),
        profile(Backend.KIND, Profile.SIMULATED, "local", "standard"),
        profile(Backend.EXISTING, Profile.MINIMAL, "local or container", "standard"),
        profile(Backend.EXISTING, Profile.SIMULATED, "local", "standard"),
        scenario(
            CapabilityScenarios.MinimalProfileOnKind.class,
            expect(
                "@ControllerTest on " + CapabilityScenarios.MinimalProfileOnKind.class.getName(),
                "the minimal profile cannot run on the kind backend",
                "Use backend local or container for minimal, or profile standard on kind")),
        faults(CapabilityScenarios.FaultsOnContainer.class, "container"),
        faults(CapabilityScenarios.FaultsOnK3s.class, "k3s"),
        faults(CapabilityScenarios.FaultsOnKind.class, "kind"),
        faults(CapabilityScenarios.FaultsOnExisting.class, "existing"),
        onBridge(
            webhooks(
                CapabilityScenarios.WebhooksOnContainerBridge.class,
                "container backend on network bridge")),
        webhooks(CapabilityScenarios.WebhooksOnK3s.class, "k3s backend"),
        webhooks(CapabilityScenarios.WebhooksOnKind.class, "kind backend"),
        webhooks(CapabilityScenarios.WebhooksOnExisting.class, "existing backend"),
        clusters(MultiClusterScenarios.ClustersOnExisting.class, "existing"),
        scenario(
            CapabilityScenarios.MatrixOnExisting.class,
            expect(
                "@ControllerTest on " + CapabilityScenarios.MatrixOnExisting.class.getName(),
                "the existing backend cannot give a Kubernetes version matrix",
                "Backends that can: local or container or k3s or kind")),
        reuse(Backend.CONTAINER),
        reuse(Backend.K3S),
        reuse(Backend.EXISTING),
        loadImage(Backend.LOCAL),
        loadImage(Backend.CONTAINER),
        loadImage(Backend.K3S),
        loadImage(Backend.EXISTING));
  }

  private static Arguments profile(
      Backend backend, Profile profile, String backendsThatCan, String profilesItRuns) {
    return row(
        profile.settingValue() + " profile on the " + backend.settingValue() + " backend",
        () ->
            start(ControlPlaneOptions.builder().withBackend(backend).withProfile(profile).build()),
        expect(
            "The control plane options: the "
                + profile.settingValue()
                + " profile cannot run on the "
                + backend.settingValue()
                + " backend",
            "runs " + profilesItRuns + " only",
            "Use backend "
                + backendsThatCan
                + " for "
                + profile.settingValue()
                + ", or profile "
                + profilesItRuns
                + " on "
                + backend.settingValue()));
  }

  private static Arguments faults(Class<?> scenario, String backend) {
    return scenario(
        scenario,
        expect(
            "@ControllerTest on " + scenario.getName() + ": the " + backend + " backend",
            "cannot give faults (a Faults field or parameter",
            "Backends that can: local. Use one of them (@ControllerTest(backend = \"local\")"));
  }

  private static Arguments clusters(Class<?> scenario, String backend) {
    return scenario(
        scenario,
        expect(
            "@ControllerTest on " + scenario.getName() + ": the " + backend + " backend",
            "cannot give several clusters in one test (clusters)",
            "Backends that can: local or container or k3s or kind. Use one of them"));
  }

  private static Arguments webhooks(Class<?> scenario, String backend) {
    return scenario(
        scenario,
        expect(
            "@ControllerTest on " + scenario.getName() + ": the " + backend,
            "cannot give webhooks served by the test JVM",
            "Backends that can: local or container with network host"));
  }

  /** The row run with {@code kubeharness.network=bridge} (CI sets host). */
  private static Arguments onBridge(Arguments row) {
    Object[] args = row.get();
    @SuppressWarnings("unchecked")
    Callable<Failure> action = (Callable<Failure>) args[1];
    return Arguments.of(
        args[0],
        (Callable<Failure>)
            () -> {
              try (var network = TemporaryProperty.set(Settings.NETWORK, "bridge")) {
                return action.call();
              }
            },
        args[2]);
  }

  private static Arguments reuse(Backend backend) {
    return row(
        "reuse on the " + backend.settingValue() + " backend",
        () -> start(ControlPlaneOptions.builder().withBackend(backend).withReuse(true).build()),
        expect(
            "The control plane options: the " + backend.settingValue() + " backend",
            "cannot give reuse (kubeharness.reuse",
            "Backends that can: local or kind"));
  }

  private static Arguments loadImage(Backend backend) {
    return row(
        "loadImage on the " + backend.settingValue() + " backend",
        () -> {
          try (ControlPlane controlPlane =
              ControlPlanes.create(ControlPlaneOptions.builder().withBackend(backend).build())) {
            controlPlane.loadImage("guestbook-operator:dev");
            return "loaded";
          }
        },
        expect(
            "loadImage: the " + backend.settingValue() + " backend",
            "cannot give loadImage (a kubelet that runs pods from local images)",
            "Backends that can: kind. Use one of them (@ControllerTest(backend = \"kind\")"));
  }

  /**
   * What a row's message must hold: the thing named (culprit), what was wrong with it, and the fix.
   * (The CLI's rows, with the exit code of a usage error: the CLI module's CliBadInputIT.)
   */
  record Expected(String culprit, String wrong, String fix) {

    Expected {
      for (String part : new String[] {culprit, wrong, fix}) {
        if (part == null || part.isBlank()) {
          throw new IllegalArgumentException("every row names its culprit, the wrong and the fix");
        }
      }
    }

    @Override
    public String toString() {
      return culprit;
    }
  }

  /** What one row's failure was: its message. */
  record Failure(String message) {}

  private static Expected expect(String culprit, String wrong, String fix) {
    return new Expected(culprit, wrong, fix);
  }

  private static ControlPlane local;
  private static Set<Long> childrenBefore;
  private static List<Path> runDirectoriesBefore;

  @BeforeAll
  static void startOneLocalControlPlane() {
    Watchdog.get(); // started on first use: not a leftover of a row
    local = ControlPlanes.local(ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build());
    local.start();
    childrenBefore = children();
    runDirectoriesBefore = runDirectories();
  }

  @AfterAll
  static void stop() {
    local.stop();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"annotationAndFiles", "everythingElse", "impossibleCombinations"})
  void badInputFailsNamingTheCulpritWhatWasWrongAndTheFixAndLeavesNothingRunning(
      String row, Callable<Failure> action, Expected expected) throws Exception {
    Failure failure = action.call();

    assertThat(failure.message()).as(row + ": the culprit").contains(expected.culprit());
    assertThat(failure.message()).as(row + ": what was wrong").contains(expected.wrong());
    assertThat(failure.message()).as(row + ": the fix").contains(expected.fix());
    assertThat(children()).as("child processes after: " + row).isEqualTo(childrenBefore);
    assertThat(runDirectories())
        .as("run directories after: " + row)
        .containsExactlyInAnyOrderElementsOf(runDirectoriesBefore);
  }

  /**
   * Each combination the enums declare impossible has its row above, and each row there is one they
   * declare: a new backend, profile or feature cannot land without its rows.
   */
  @Test
  void backendCapabilitiesAreTheOnesTheseRowsCover() {
    List<String> declared = new ArrayList<>();
    for (Backend backend : Backend.values()) {
      if (backend == Backend.AUTO) {
        continue;
      }
      String name = backend.settingValue();
      String capitalized = Character.toUpperCase(name.charAt(0)) + name.substring(1);
      for (Profile profile : Profile.values()) {
        if (!backend.profiles().contains(profile)) {
          declared.add(profile.settingValue() + " profile on the " + name + " backend");
        }
      }
      for (Backend.Feature feature : Backend.Feature.values()) {
        if (backend.supports(feature, NetworkMode.BRIDGE)) {
          continue;
        }
        String bridge = backend.supports(feature, NetworkMode.HOST) ? "Bridge" : "";
        declared.add(
            switch (feature) {
              case FAULTS -> "FaultsOn" + capitalized;
              case JVM_WEBHOOKS -> "WebhooksOn" + capitalized + bridge;
              case VERSION_MATRIX -> "MatrixOn" + capitalized;
              case REUSE -> "reuse on the " + name + " backend";
              case LOAD_IMAGE -> "loadImage on the " + name + " backend";
              case CLUSTERS -> "ClustersOn" + capitalized;
            });
      }
    }
    List<String> rows =
        impossibleCombinations()
            .map(row -> (String) row.get()[0])
            .filter(row -> !row.equals("MinimalProfileOnKind")) // the annotation's way to ask
            .toList();
    assertThat(rows).containsExactlyInAnyOrderElementsOf(declared);
  }

  private static Arguments scenario(Class<?> scenario, Expected expected) {
    return Arguments.of(
        scenario.getSimpleName(),
        (Callable<Failure>)
            () ->
                new Failure(
                    ScenarioRunner.fullMessage(
                        ScenarioRunner.onlyFailure(ScenarioRunner.run(scenario)))),
        expected);
  }

  private static Arguments row(String name, Callable<Object> action, Expected expected) {
    return Arguments.of(
        name,
        (Callable<Failure>)
            () -> {
              try {
                Object result = action.call();
                return new Failure("no failure: " + result);
              } catch (Exception e) {
                return new Failure(e.getMessage());
              }
            },
        expected);
  }

  /** A setting's row: the culprit is the setting, named as a system property. */
  private static Arguments setting(String property, String value, String wrong, String fix) {
    return row(
        property + "=" + value,
        () -> {
          try (var setting = TemporaryProperty.set(property, value)) {
            return SettingsResolver.resolve(ControlPlaneOptions.defaults());
          }
        },
        expect("system property " + property, wrong, fix));
  }

  /**
   * A row for a setting the local backend alone reads: it is read when that backend is chosen, so
   * the row names it (the suite's second pass runs with KUBE_HARNESS_BACKEND=container).
   */
  private static Arguments localSetting(String property, String value, String wrong, String fix) {
    return row(
        property + "=" + value,
        () -> {
          try (var setting = TemporaryProperty.set(property, value)) {
            return SettingsResolver.resolve(
                ControlPlaneOptions.builder().withBackend(Backend.LOCAL).build());
          }
        },
        expect("system property " + property, wrong, fix));
  }

  private static Object start(ControlPlaneOptions options) {
    try (ControlPlane controlPlane = ControlPlanes.create(options)) {
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
