package io.github.kubeharness.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a suite's launcher listener ({@code SuiteControlPlanes}) changes, each with it and without
 * it ({@code junit.platform.execution.listeners.deactivate}, as a run the listener cannot see),
 * every figure from a fresh JVM ({@link SuiteChild}):
 *
 * <ul>
 *   <li>{@code junit_first_test_new_jvm_ms} / {@code _unplanned_ms}: from the JVM's start to the
 *       end of a run's first test, its control plane begun at the plan's start or at the class's
 *       first callback; the two alternate, run by run, so that a drift of a shared machine's speed
 *       touches both alike.
 *   <li>{@code suite_peak_control_planes} and {@code suite_peak_rss_mb} (with {@code _unplanned}
 *       and {@code _grouped}): a suite of six classes on three profiles times three versions, the
 *       most kube-apiservers alive at once and the largest resident memory of the JVM and its
 *       processes together; once each (a run takes minutes).
 * </ul>
 */
final class SuiteBench {

  private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";
  private static final String UNPLANNED =
      "-Djunit.platform.execution.listeners.deactivate=io.github.kubeharness.junit.SuiteControlPlanes";

  private SuiteBench() {}

  static void measure(BenchResults results, int runs) throws Exception {
    List<Double> planned = new ArrayList<>();
    List<Double> unplanned = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      planned.add(Double.parseDouble(child(List.of(C1_ONLY), "FIRST_TEST ", "first")[0]));
      unplanned.add(
          Double.parseDouble(child(List.of(C1_ONLY, UNPLANNED), "FIRST_TEST ", "first")[0]));
    }
    results.record("junit_first_test_new_jvm_ms", planned);
    results.record("junit_first_test_new_jvm_unplanned_ms", unplanned);
    peak(results, "_unplanned", List.of(C1_ONLY, UNPLANNED));
    peak(results, "", List.of(C1_ONLY));
    peak(results, "_grouped", List.of(C1_ONLY), "grouped");
  }

  private static void peak(
      BenchResults results, String suffix, List<String> jvmOptions, String... args)
      throws Exception {
    List<String> argv = new ArrayList<>(List.of("peak"));
    argv.addAll(List.of(args));
    String[] peak = child(jvmOptions, "PEAK ", argv.toArray(String[]::new));
    results.value("suite_peak_control_planes" + suffix, Double.parseDouble(peak[0]));
    results.value("suite_peak_rss_mb" + suffix, Double.parseDouble(peak[1]));
  }

  /** Runs a {@link SuiteChild}; the words after {@code marker} on its line that starts so. */
  private static String[] child(List<String> jvmOptions, String marker, String... args)
      throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(SuiteChild.class.getName());
    command.addAll(List.of(args));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
    String[] found = null;
    List<String> tail = new ArrayList<>();
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith(marker)) {
        found = line.substring(marker.length()).split(" ");
      }
      tail.add(line);
      if (tail.size() > 20) {
        tail.remove(0);
      }
    }
    if (child.waitFor() != 0 || found == null) {
      throw new IllegalStateException(
          "SuiteChild "
              + String.join(" ", args)
              + " failed (exit "
              + child.exitValue()
              + "); its last lines:\n"
              + String.join("\n", tail));
    }
    return found;
  }
}
