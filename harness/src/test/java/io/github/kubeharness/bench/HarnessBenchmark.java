package io.github.kubeharness.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.backend.Backends;
import io.github.kubeharness.internal.backend.HarnessControlPlane;
import io.github.kubeharness.internal.process.InParallel;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import io.github.kubeharness.junit.fixtures.StorageFixtures;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.launch.ControlPlanes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@code make bench}: measures what users feel — control-plane start, per-test overhead,
 * event-to-reconcile latency, cleanup after {@code kill -9} — and writes {@code
 * target/bench/results.json} (flat name/number pairs) and {@code results.md} (the README's table).
 * Run from the repository root with binaries provisioned. Every figure is what a user gets: the
 * control plane with the audit log {@code @ControllerTest} turns on, and a scenario that fails
 * invalidates the run. Each median is checked against {@link Targets}; a miss makes the exit code
 * 1.
 *
 * <p>Modes (the first argument): none, the full run ({@code target/bench}); {@code start}, the
 * start-up figures alone ({@code target/bench/start}); {@code smoke}, every scenario and peer once
 * (n = 1, {@code target/bench/smoke}), targets reported but not enforced, failing only when a
 * scenario fails or a peer is not measured — what {@code .ci/run} runs to prove the bench still
 * works end to end. Each mode first writes {@code started-at} in its directory and the results only
 * at its end, so results older than that marker are from a run that did not finish.
 */
public final class HarnessBenchmark {

  // The JVM option the README recommends for test JVMs: C1 only, no C2 compiling at start-up.
  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private static final int FULL_RUNS = 10;

  // Samples per figure: 10 in a full run, 1 in the smoke run.
  private final int runs;
  private final BenchResults results = new BenchResults();

  private HarnessBenchmark(int runs) {
    this.runs = runs;
  }

  public static void main(String[] args) throws Exception {
    String mode = args.length > 0 ? args[0] : "full";
    Path out = Path.of("target", "bench");
    switch (mode) {
      case "full" -> {
        HarnessBenchmark bench = new HarnessBenchmark(FULL_RUNS);
        BenchResults.markStart(out);
        bench.run();
        bench.results.write(out);
        System.exit(bench.results.checkTargets() ? 0 : 1);
      }
      // make bench-start: the start-up figures alone, for an A/B of a change to the start path
      // (a few minutes instead of the whole run).
      case "start" -> part(out, "start", HarnessBenchmark::runStartOnly);
      // The simulated profile's workload figures alone, for an A/B of a change to them.
      case "simulated" ->
          part(
              out,
              "simulated",
              bench -> {
                bench.deploymentReady();
                bench.statefulSetReady();
              });
      // The Spring and Quarkus first-test rows alone (make bench builds the samples first).
      case "frameworks" ->
          part(out, "frameworks", bench -> FrameworkFirstTests.measure(bench.results, bench.runs));
      // The cost of a further cluster of @ControllerTest(clusters) alone, with a whole control
      // plane's start in the same run to compare with.
      case "clusters" ->
          part(
              out,
              "clusters",
              bench -> {
                startStop(local(Profile.MINIMAL));
                bench.coldStart(local(Profile.MINIMAL), "local_minimal_start_ms", FULL_RUNS);
                bench.coldStart(local(Profile.STANDARD), "local_standard_start_ms", FULL_RUNS);
                bench.extraClusters();
              });
      // The cost of the race controls beside a plain test's.
      case "races" ->
          part(
              out,
              "races",
              bench -> {
                bench.perTestOverhead();
                bench.raceControls();
              });
      // A suite of 20 test classes, serial and parallel, alone.
      case "parallel" ->
          part(out, "parallel", bench -> ParallelSuiteTimes.measure(bench.results, bench.runs));
      // A suite's launcher listener, with it and without it: the first test in a fresh JVM, and
      // the peak control planes and memory of a suite on three profiles and three versions.
      case "suite" -> part(out, "suite", bench -> SuiteBench.measure(bench.results, bench.runs));
      case "smoke" -> {
        // Beside, not over, the full results: bench-readme must never copy n = 1 figures.
        HarnessBenchmark bench = new HarnessBenchmark(1);
        Path smoke = out.resolve("smoke");
        BenchResults.markStart(smoke);
        bench.run();
        bench.results.write(smoke);
        bench.results.checkTargets(); // printed for the log; one sample proves nothing about them
        System.exit(bench.results.checkPeersMeasured() ? 0 : 1);
      }
      default -> {
        System.err.println(
            "unknown bench mode '"
                + mode
                + "': expected none (the full run), start, simulated, frameworks, clusters,"
                + " races, parallel, suite or smoke");
        System.exit(2);
      }
    }
  }

  /**
   * One mode of a few rows at n = 10, written beside, not over, the full results: {@code
   * target/bench/<name>}, its {@code started-at} first.
   */
  private static void part(Path out, String name, Part part) throws Exception {
    HarnessBenchmark bench = new HarnessBenchmark(FULL_RUNS);
    Path dir = out.resolve(name);
    BenchResults.markStart(dir);
    part.measure(bench);
    bench.results.write(dir);
  }

  /** What a mode of {@link #part} measures. */
  @FunctionalInterface
  private interface Part {
    void measure(HarnessBenchmark bench) throws Exception;
  }

  private void runStartOnly() throws Exception {
    startStop(local(Profile.MINIMAL));
    coldStart(local(Profile.MINIMAL), "local_minimal_start_ms", runs);
    coldStart(local(Profile.STANDARD), "local_standard_start_ms", runs);
    firstStartInNewJvm();
    containerStart();
    extraClusters();
  }

  private void run() throws Exception {
    // Warm-up: first start pays for class loading and page cache; users pay it once per JVM.
    startStop(local(Profile.MINIMAL));
    coldStart(local(Profile.MINIMAL), "local_minimal_start_ms", runs);
    coldStart(local(Profile.STANDARD), "local_standard_start_ms", runs);
    coldStart(local(Profile.SIMULATED), "local_simulated_start_ms", runs);
    deploymentReady();
    statefulSetReady();
    firstStartInNewJvm();
    extraClusters();
    reuse();
    containerStart();
    kindStart();
    perTestOverhead();
    raceControls();
    FrameworkFirstTests.measure(results, runs);
    ParallelSuiteTimes.measure(results, runs);
    eventToReconcile();
    killNineCleanup();
    controlPlaneMemory();
    perTestOverheadGrowth();
    Peers.measure(results, runs);
  }

  // With the audit log, as every @ControllerTest control plane has it.
  private static ControlPlaneOptions local(Profile profile) {
    return ControlPlaneOptions.builder()
        .withBackend(Backend.LOCAL)
        .withProfile(profile)
        .withAuditLog(true)
        .build();
  }

  private void coldStart(ControlPlaneOptions options, String name, int runs) {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      samples.add(startStop(options));
    }
    results.record(name, samples);
  }

  // The container backend beside the local one, where Docker answers (network mode from
  // KUBE_HARNESS_NETWORK, as in tests); the first start warms docker-java and is not counted.
  private void containerStart() {
    ControlPlaneOptions options =
        ControlPlaneOptions.builder()
            .withBackend(Backend.CONTAINER)
            .withProfile(Profile.MINIMAL)
            .withAuditLog(true)
            .build();
    try {
      startStop(options);
    } catch (KubeHarnessException e) {
      results.notMeasured("container_minimal_start_ms", e.getMessage().lines().findFirst().get());
      return;
    }
    coldStart(options, "container_minimal_start_ms", runs);
  }

  // The kind backend, where its node image is here (make kind-image): creating a cluster (3 runs,
  // tens of seconds each) and attaching to one kept by kubeharness.kind.reuse (what a second run
  // of the same tests pays).
  private void kindStart() throws Exception {
    ControlPlaneOptions options =
        ControlPlaneOptions.builder().withBackend(Backend.KIND).withAuditLog(true).build();
    try {
      coldStart(options, "kind_cold_start_ms", Math.min(3, runs));
    } catch (KubeHarnessException e) {
      results.notMeasured("kind_cold_start_ms", e.getMessage().lines().findFirst().get());
      return;
    }
    // Reuse asked in the options themselves: they are resolved once, when built, so a property
    // set now would not reach them (it did not, for a while: the row measured cold starts).
    ControlPlaneOptions kept = options.toBuilder().withReuse(true).build();
    try {
      startStop(kept); // creates the cluster that is kept
      coldStart(kept, "kind_attach_ms", runs);
    } finally {
      Process nodes =
          new ProcessBuilder(
                  "sh",
                  "-c",
                  "docker ps -aq --filter label=io.x-k8s.kind.cluster --filter"
                      + " name=kube-harness-reuse- | xargs -r docker rm -f -v")
              .inheritIO()
              .start();
      nodes.waitFor();
    }
  }

  // The simulated profile's point: a 3-replica Deployment, created, until its Available
  // condition is True (scheduler, ReplicaSet controller, KWOK's start delay, status roll-up).
  private void deploymentReady() {
    List<Double> samples = new ArrayList<>();
    try (ControlPlane cp = ControlPlanes.create(local(Profile.SIMULATED))) {
      cp.start();
      try (KubernetesClient client = cp.newClient()) {
        for (int i = 0; i < runs; i++) {
          String ns = "deployment-ready-" + i;
          client
              .namespaces()
              .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
              .create();
          Deployment deployment =
              new DeploymentBuilder()
                  .withNewMetadata()
                  .withName("web")
                  .withNamespace(ns)
                  .endMetadata()
                  .withNewSpec()
                  .withReplicas(3)
                  .withNewSelector()
                  .addToMatchLabels("app", "web")
                  .endSelector()
                  .withNewTemplate()
                  .withNewMetadata()
                  .addToLabels("app", "web")
                  .endMetadata()
                  .withNewSpec()
                  .addNewContainer()
                  .withName("web")
                  .withImage("example.invalid/web:1")
                  .endContainer()
                  .endSpec()
                  .endTemplate()
                  .endSpec()
                  .build();
          long t0 = System.nanoTime();
          client.resource(deployment).create();
          client
              .apps()
              .deployments()
              .inNamespace(ns)
              .withName("web")
              .waitUntilCondition(HarnessBenchmark::available, 60, TimeUnit.SECONDS);
          samples.add((System.nanoTime() - t0) / 1e6);
        }
      }
    }
    results.record("deployment_ready_ms", samples);
  }

  // A database-shaped workload: a 3-replica StatefulSet whose pods each claim a volume, created,
  // until all 3 are ready — claims provisioned and bound (the harness's provisioner,
  // kube-controller-manager's binder), pods scheduled in order and started by KWOK.
  private void statefulSetReady() {
    List<Double> samples = new ArrayList<>();
    try (ControlPlane cp = ControlPlanes.create(local(Profile.SIMULATED))) {
      cp.start();
      try (KubernetesClient client = cp.newClient()) {
        for (int i = 0; i < runs; i++) {
          String ns = "statefulset-ready-" + i;
          client
              .namespaces()
              .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
              .create();
          StatefulSet db =
              StorageFixtures.database("db", 3, "example.invalid/db:1", "1Gi")
                  .editMetadata()
                  .withNamespace(ns)
                  .endMetadata()
                  .build();
          long t0 = System.nanoTime();
          client.resource(db).create();
          client
              .apps()
              .statefulSets()
              .inNamespace(ns)
              .withName("db")
              .waitUntilCondition(
                  s ->
                      s != null
                          && s.getStatus() != null
                          && Integer.valueOf(3).equals(s.getStatus().getReadyReplicas()),
                  60,
                  TimeUnit.SECONDS);
          samples.add((System.nanoTime() - t0) / 1e6);
        }
      }
    }
    results.record("statefulset_ready_ms", samples);
  }

  private static boolean available(Deployment d) {
    return d != null
        && d.getStatus() != null
        && d.getStatus().getConditions() != null
        && d.getStatus().getConditions().stream()
            .anyMatch(c -> "Available".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  // @ControllerTest(clusters): what the clusters after the first cost on the local backend, each an
  // apiserver on the first one's etcd (and, in standard, a controller manager of its own, which
  // garbage collection and namespace deletion need). Per run, for each profile:
  //  - a class's three clusters from nothing, as the extension starts them (the further ones
  //    launch on the first one's etcd while its apiserver boots), beside one whole control plane
  //    started alone in the same run: their difference over two is what each further cluster adds
  //    to a class's start (per_extra_cluster_ms);
  //  - with a first cluster running already (another class started it): one further cluster alone,
  //    then two together, both on bootstrapped keyspaces of the seed; then one more, which finds
  //    none free and bootstraps its own (the path every further cluster took before the seed had
  //    keyspaces for them).
  private void extraClusters() {
    for (Profile profile : List.of(Profile.MINIMAL, Profile.STANDARD)) {
      String prefix = "local_" + profile.settingValue();
      List<Double> one = new ArrayList<>();
      List<Double> three = new ArrayList<>();
      List<Double> perExtra = new ArrayList<>();
      List<Double> alone = new ArrayList<>();
      List<Double> together = new ArrayList<>();
      List<Double> unseeded = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        double threeMs = threeClustersTogether(profile);
        HarnessControlPlane first = Backends.newControlPlane(local(profile));
        long t0 = System.nanoTime();
        first.start();
        double oneMs = (System.nanoTime() - t0) / 1e6;
        one.add(oneMs);
        three.add(threeMs);
        perExtra.add((threeMs - oneMs) / 2);
        List<HarnessControlPlane> extras = new ArrayList<>();
        try {
          alone.add(startBeside(first, List.of("edge-1"), extras));
          together.add(startBeside(first, List.of("edge-2", "edge-3"), extras));
          unseeded.add(startBeside(first, List.of("edge-4"), extras));
        } finally {
          for (HarnessControlPlane extra : extras) {
            extra.stop();
          }
          first.stop();
        }
      }
      results.record(prefix + "_one_cluster_start_ms", one);
      results.record(prefix + "_three_clusters_start_ms", three);
      results.record(prefix + "_per_extra_cluster_ms", perExtra);
      results.record(prefix + "_extra_cluster_start_ms", alone);
      results.record(prefix + "_two_extra_clusters_start_ms", together);
      results.record(prefix + "_extra_cluster_unseeded_start_ms", unseeded);
    }
  }

  // A first cluster and two beside it, all started at once as the extension starts a class with
  // three clusters; returns the wall time until all three are up.
  private static double threeClustersTogether(Profile profile) {
    HarnessControlPlane first = Backends.newControlPlane(local(profile));
    List<HarnessControlPlane> all = new ArrayList<>(List.of(first));
    for (String name : List.of("edge-1", "edge-2")) {
      all.add(Backends.newClusterBeside(first, name, "bench"));
    }
    try {
      return startTogether(all);
    } finally {
      for (int i = all.size() - 1; i >= 0; i--) {
        all.get(i).stop();
      }
    }
  }

  // Starts clusters `names` beside `first` together, as the extension does; returns the wall time.
  private static double startBeside(
      HarnessControlPlane first, List<String> names, List<HarnessControlPlane> started) {
    List<HarnessControlPlane> extras = new ArrayList<>();
    for (String name : names) {
      extras.add(Backends.newClusterBeside(first, name, "bench"));
    }
    started.addAll(extras);
    return startTogether(extras);
  }

  // Starts `clusters` at once, as the extension does; returns the wall time until all are up.
  private static double startTogether(List<HarnessControlPlane> clusters) {
    long t0 = System.nanoTime();
    InParallel.map(
        clusters,
        cluster -> {
          cluster.start();
          return cluster;
        },
        "bench-cluster-start");
    return (System.nanoTime() - t0) / 1e6;
  }

  private static double startStop(ControlPlaneOptions options) {
    ControlPlane cp = ControlPlanes.create(options);
    long t0 = System.nanoTime();
    cp.start();
    double ms = (System.nanoTime() - t0) / 1e6;
    cp.stop();
    return ms;
  }

  // What the first test class of a run waits for: start() in a JVM that has loaded nothing yet,
  // timed from start() and from the JVM's own start (what the user's clock sees). Once in a JVM
  // as it comes, once with C2 off (-XX:TieredStopAtLevel=1, the argLine the README recommends):
  // in a fresh JVM C2's compiling competes with kube-apiserver's boot for the cores.
  private void firstStartInNewJvm() throws Exception {
    List<Double> fromJvm =
        firstStartInNewJvm(
            List.of(),
            "local_minimal_first_start_new_jvm_ms",
            "local_minimal_first_request_new_jvm_ms");
    results.record("local_minimal_first_start_from_jvm_start_ms", fromJvm);
    firstStartInNewJvm(
        List.of(C1_ONLY),
        "local_minimal_first_start_new_jvm_c1_ms",
        "local_minimal_first_request_new_jvm_c1_ms");
  }

  /** Records start() and the first answer under the two names; returns the from-JVM-start times. */
  private List<Double> firstStartInNewJvm(
      List<String> jvmOptions, String startName, String firstRequestName) throws Exception {
    List<Double> fromStart = new ArrayList<>();
    List<Double> fromJvm = new ArrayList<>();
    List<Double> firstAnswer = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      double[] times = firstStartChild(jvmOptions);
      fromStart.add(times[0]);
      fromJvm.add(times[1]);
      firstAnswer.add(times[2]);
    }
    results.record(startName, fromStart);
    // start() can return before the user's first fabric8 call has paid its class loading.
    results.record(firstRequestName, firstAnswer);
    return fromJvm;
  }

  // kubeharness.reuse: start() when a kept control plane is there to attach to, in this JVM and
  // in a fresh one (what the next `mvn verify` waits for).
  private void reuse() throws Exception {
    ControlPlaneOptions options = local(Profile.MINIMAL).toBuilder().withReuse(true).build();
    try {
      startStop(options); // starts the one that is kept
      coldStart(options, "reuse_attach_ms", runs);
      List<Double> fresh = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        fresh.add(firstStartChild(List.of(), "reuse")[0]);
      }
      results.record("reuse_first_start_new_jvm_ms", fresh);
    } finally {
      KeptControlPlane.stopAll(options.cacheDirectory());
    }
  }

  /** One FirstStart child: ms from start(), from the JVM's start, to the first client answer. */
  private static double[] firstStartChild(List<String> jvmOptions, String... args)
      throws Exception {
    List<String> argv = new ArrayList<>(List.of("minimal"));
    argv.addAll(List.of(args));
    Process child = childJvm(jvmOptions, FirstStart.class.getName(), argv.toArray(String[]::new));
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
    double[] times = null;
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith("STARTED ")) {
        String[] parts = line.split(" ");
        times =
            new double[] {
              Double.parseDouble(parts[1]),
              Double.parseDouble(parts[2]),
              Double.parseDouble(parts[3])
            };
      }
    }
    if (child.waitFor() != 0 || times == null) {
      throw new IllegalStateException("FirstStart child failed (exit " + child.exitValue() + ")");
    }
    return times;
  }

  // Empty tests under @ControllerTest. The first test of a class also pays for what a class does
  // once (namespace informers, JOSDK's first operator in the JVM): reported on its own, every
  // user pays it. Several launcher runs, each on a fresh cluster, for enough first tests.
  private void perTestOverhead() {
    List<Double> first = new ArrayList<>();
    List<Double> rest = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      List<Double> durations = timedTests(OverheadScenario.class);
      first.add(durations.get(0));
      rest.addAll(durations.subList(1, durations.size()));
    }
    results.record("first_test_overhead_ms", first);
    results.record("per_test_overhead_ms", rest);
  }

  // The race controls (docs/races.md): a test with them idle, and a race run's own cost. First
  // tests left out, as above; one launcher run gives enough samples (20 and 10).
  private void raceControls() {
    List<Double> viaProxy = timedTests(OverheadViaProxyScenario.class);
    results.record("per_test_overhead_via_proxy_ms", viaProxy.subList(1, viaProxy.size()));
    List<Double> raceRuns = timedTests(ExplorerRunScenario.class);
    results.record("race_run_overhead_ms", raceRuns.subList(1, raceRuns.size()));
  }

  /** Runs a scenario class; returns each test's duration in start order. Fails on any failure. */
  static List<Double> timedTests(Class<?> scenario) {
    List<Double> durations = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Map<String, Long> started = new java.util.concurrent.ConcurrentHashMap<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionStarted(TestIdentifier id) {
            if (id.isTest()) started.put(id.getUniqueId(), System.nanoTime());
          }

          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              failures.add(id.getDisplayName() + ": " + result.getThrowable().orElse(null));
            } else if (id.isTest()) {
              durations.add((System.nanoTime() - started.get(id.getUniqueId())) / 1e6);
            }
          }
        };
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(scenario)).build(),
            listener);
    if (!failures.isEmpty()) {
      // A failed run is no sample: the figure would time an error path.
      throw new IllegalStateException(scenario.getSimpleName() + " failed: " + failures);
    }
    return durations;
  }

  private void eventToReconcile() {
    timedTests(LatencyScenario.class);
    results.record("event_to_reconcile_ms", LatencyScenario.LATENCIES_MS);
  }

  // From SIGKILL of the JVM until nothing of its control plane is left: processes gone and the run
  // directory (with its copy of the etcd seed) deleted.
  private void killNineCleanup() throws Exception {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      Process child = childJvm(List.of(), "io.github.kubeharness.KillNineChild", "standard");
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("READY ")) {}
      if (line == null) {
        throw new IllegalStateException("KillNineChild ended before READY");
      }
      List<Long> pids =
          Arrays.stream(line.replaceAll(".*pids=([0-9,]+).*", "$1").split(","))
              .map(Long::parseLong)
              .toList();
      Path run = Path.of(line.replaceAll(".* run=(\\S+).*", "$1"));
      long t0 = System.nanoTime();
      child.destroyForcibly();
      long deadline = t0 + 60_000_000_000L;
      while (pids.stream().anyMatch(p -> ProcessHandle.of(p).isPresent()) || Files.exists(run)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("kill -9 left " + run + " or its processes behind");
        }
        Thread.sleep(10);
      }
      samples.add((System.nanoTime() - t0) / 1e6);
    }
    results.record("kill9_cleanup_ms", samples);
  }

  // What the control plane costs in memory: the resident set of every process it runs (etcd,
  // kube-apiserver, the controller manager, the scheduler) once it is ready and holds 100 custom
  // resources; the JVM itself is the user's and not counted.
  private void controlPlaneMemory() throws Exception {
    try (ControlPlane cp = ControlPlanes.create(local(Profile.STANDARD))) {
      cp.start();
      cp.installCrds(List.of("harness/src/test/resources/crds"), List.of());
      try (KubernetesClient client = cp.newClient()) {
        client
            .namespaces()
            .resource(
                new NamespaceBuilder().withNewMetadata().withName("rss").endMetadata().build())
            .create();
        for (int i = 0; i < 100; i++) {
          client.resource(Widget.named("w" + i, "hello " + i)).inNamespace("rss").create();
        }
      }
      long kb = 0;
      for (ProcessHandle process : ProcessHandle.current().descendants().toList()) {
        kb += residentKb(process.pid());
      }
      results.value("controlplane_rss_mb", kb / 1024.0);
    }
  }

  private static long residentKb(long pid) throws IOException {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    if (!Files.exists(status)) {
      return 0;
    }
    return Files.readAllLines(status).stream()
        .filter(l -> l.startsWith("VmRSS:"))
        .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
        .sum();
  }

  // Does the per-test cost creep up over a long class (informers, namespaces, watches piling up)?
  // The median of tests 181-200 over that of tests 2-21 of one 200-test class; flat is 1.0.
  private void perTestOverheadGrowth() {
    List<Double> durations = timedTests(LongClassScenario.class);
    List<Double> early = new ArrayList<>(durations.subList(1, 21));
    List<Double> late = new ArrayList<>(durations.subList(durations.size() - 20, durations.size()));
    results.value("per_test_overhead_growth", median(late) / median(early));
  }

  static double median(List<Double> samples) {
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  static Process childJvm(List<String> jvmOptions, String mainClass, String... arguments)
      throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
    command.addAll(List.of(arguments));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }
}
