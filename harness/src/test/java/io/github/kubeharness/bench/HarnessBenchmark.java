package io.github.kubeharness.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * {@code make bench}: measures what users feel — control-plane start, per-test overhead,
 * event-to-reconcile latency, cleanup after {@code kill -9} — and writes {@code
 * target/bench/results.json} (flat name/number pairs) and {@code results.md}. Run from the
 * repository root with binaries provisioned. Measures only; it asserts nothing.
 */
public final class HarnessBenchmark {

  private final Map<String, Double> results = new LinkedHashMap<>();

  public static void main(String[] args) throws Exception {
    new HarnessBenchmark().run();
    System.exit(0);
  }

  private void run() throws Exception {
    // Warm-up: first start pays for class loading and page cache; users pay it once per JVM.
    startStop(local(Profile.MINIMAL));
    coldStart(local(Profile.MINIMAL), "local_minimal_start_ms", 7);
    coldStart(local(Profile.STANDARD), "local_standard_start_ms", 5);
    firstStartInNewJvm();
    containerStart();
    perTestOverhead();
    eventToReconcile();
    killNineCleanup();
    write();
  }

  private static ControlPlaneOptions local(Profile profile) {
    return ControlPlaneOptions.builder().withBackend(Backend.LOCAL).withProfile(profile).build();
  }

  private void coldStart(ControlPlaneOptions options, String name, int runs) {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      samples.add(startStop(options));
    }
    record(name, samples);
  }

  // The container backend beside the local one, where Docker answers (network mode from
  // KUBE_HARNESS_NETWORK, as in tests); the first start warms docker-java and is not counted.
  private void containerStart() {
    ControlPlaneOptions options =
        ControlPlaneOptions.builder()
            .withBackend(Backend.CONTAINER)
            .withProfile(Profile.MINIMAL)
            .build();
    try {
      startStop(options);
    } catch (KubeHarnessException e) {
      System.out.println(
          "container_minimal_start_ms: not measured: " + e.getMessage().lines().findFirst().get());
      return;
    }
    coldStart(options, "container_minimal_start_ms", 5);
  }

  private static double startStop(ControlPlaneOptions options) {
    ControlPlane cp = ControlPlane.create(options);
    long t0 = System.nanoTime();
    cp.start();
    double ms = (System.nanoTime() - t0) / 1e6;
    cp.stop();
    return ms;
  }

  // What the first test class of a run waits for: start() in a JVM that has loaded nothing yet.
  private void firstStartInNewJvm() throws Exception {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Process child = childJvm(FirstStart.class.getName(), "minimal");
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("STARTED ")) {
          samples.add(Double.parseDouble(line.substring("STARTED ".length())));
        }
      }
      child.waitFor();
    }
    record("local_minimal_first_start_new_jvm_ms", samples);
  }

  private void perTestOverhead() {
    List<Double> durations = new ArrayList<>();
    Map<String, Long> started = new java.util.concurrent.ConcurrentHashMap<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionStarted(TestIdentifier id) {
            if (id.isTest()) started.put(id.getUniqueId(), System.nanoTime());
          }

          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
              durations.add((System.nanoTime() - started.get(id.getUniqueId())) / 1e6);
            }
          }
        };
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(OverheadScenario.class))
                .build(),
            listener);
    // The first test also installs the CRD into a fresh cluster; per-test overhead is the rest.
    record("per_test_overhead_ms", durations.subList(1, durations.size()));
  }

  private void eventToReconcile() {
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LatencyScenario.class))
                .build());
    record("event_to_reconcile_ms", LatencyScenario.LATENCIES_MS);
  }

  private void killNineCleanup() throws Exception {
    List<Double> samples = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Process child = childJvm("io.github.kubeharness.KillNineChild", "standard");
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("READY ")) {}
      List<Long> pids =
          Arrays.stream(line.replaceAll(".*pids=([0-9,]+).*", "$1").split(","))
              .map(Long::parseLong)
              .toList();
      long t0 = System.nanoTime();
      child.destroyForcibly();
      while (pids.stream().anyMatch(p -> ProcessHandle.of(p).isPresent())) {
        Thread.sleep(10);
      }
      samples.add((System.nanoTime() - t0) / 1e6);
    }
    record("kill9_cleanup_ms", samples);
  }

  private static Process childJvm(String mainClass, String argument) throws IOException {
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            mainClass,
            argument)
        .redirectErrorStream(true)
        .start();
  }

  private void record(String name, List<Double> samples) {
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    double median = sorted.get(sorted.size() / 2);
    results.put(name, round(median));
    results.put(
        name.replace("_ms", "_p90_ms"),
        round(sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.9) - 1))));
    System.out.printf(
        "%-28s median %8.1f ms  (n=%d, min %.1f, max %.1f)%n",
        name, median, sorted.size(), sorted.get(0), sorted.get(sorted.size() - 1));
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  private void write() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "bench"));
    StringBuilder json = new StringBuilder("{\n");
    StringBuilder md =
        new StringBuilder("# kube-harness benchmark\n\n")
            .append("Machine: ")
            .append(Runtime.getRuntime().availableProcessors())
            .append(" cores, Java ")
            .append(System.getProperty("java.version"))
            .append(
                ". Medians (p90) in milliseconds.\n\n| measure | median | p90 |\n|---|---|---|\n");
    List<String> names = new ArrayList<>(results.keySet());
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      json.append("  \"")
          .append(n)
          .append("\": ")
          .append(results.get(n))
          .append(i < names.size() - 1 ? ",\n" : "\n");
      if (!n.contains("_p90_")) {
        md.append("| ")
            .append(n)
            .append(" | ")
            .append(results.get(n))
            .append(" | ")
            .append(results.get(n.replace("_ms", "_p90_ms")))
            .append(" |\n");
      }
    }
    json.append("}\n");
    Files.writeString(dir.resolve("results.json"), json);
    Files.writeString(dir.resolve("results.md"), md);
    System.out.println("wrote " + dir.resolve("results.json") + " and results.md");
  }
}
