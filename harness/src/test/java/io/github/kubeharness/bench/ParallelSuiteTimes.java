package io.github.kubeharness.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code suite_20_classes_serial_ms} and {@code suite_20_classes_parallel_ms}: the wall time of a
 * suite of 20 {@code @ControllerTest} classes ({@link TwentyClassesScenario}) in a fresh JVM, run
 * one class after another and with the parallel set-up of docs/controller-test.md, the two runs of
 * each sample back to back; {@code suite_20_classes_parallel_percent_of_serial} is each pair's
 * ratio; {@code suite_20_classes_parallel_4_threads_ms} runs methods at the same time too, on four
 * threads. The control plane's start is in both: what a {@code mvn verify} of the suite waits for.
 */
final class ParallelSuiteTimes {

  // A fresh JVM of tens of seconds per run and mode: three pairs, as the other suite rows take.
  private static final int MAX_RUNS = 3;
  private static final int TESTS = 40;

  private ParallelSuiteTimes() {}

  static void measure(BenchResults results, int runs) throws Exception {
    List<Double> serial = new ArrayList<>();
    List<Double> parallel = new ArrayList<>();
    List<Double> percent = new ArrayList<>();
    List<Double> fourThreads = new ArrayList<>();
    for (int i = 0; i < Math.min(MAX_RUNS, runs); i++) {
      double one = suite("serial");
      double both = suite("parallel");
      serial.add(one);
      parallel.add(both);
      percent.add(100 * both / one);
      fourThreads.add(suite("parallel-4"));
    }
    results.record("suite_20_classes_serial_ms", serial);
    results.record("suite_20_classes_parallel_ms", parallel);
    results.record("suite_20_classes_parallel_percent_of_serial", percent);
    // Methods at the same time too, on four threads: what more threads than cores buy.
    results.record("suite_20_classes_parallel_4_threads_ms", fourThreads);
  }

  /** One run of the suite in a child JVM; its wall time, or a failure naming what went wrong. */
  private static double suite(String mode) throws Exception {
    System.out.println("bench: a suite of 20 classes, " + mode + " ...");
    Process child = HarnessBenchmark.childJvm(List.of(), ParallelSuiteChild.class.getName(), mode);
    BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
    List<String> failures = new ArrayList<>();
    Double wall = null;
    for (String line; (line = out.readLine()) != null; ) {
      if (line.startsWith("FAILED ")) {
        failures.add(line);
      } else if (line.startsWith("SUITE ")) {
        String[] parts = line.split(" ");
        if (Integer.parseInt(parts[2]) == TESTS && Integer.parseInt(parts[3]) == 0) {
          wall = Double.parseDouble(parts[1]);
        } else {
          failures.add(line);
        }
      }
    }
    if (child.waitFor() != 0 || wall == null) {
      throw new IllegalStateException(
          "The "
              + mode
              + " suite of 20 classes did not pass (exit "
              + child.exitValue()
              + "): "
              + failures);
    }
    return wall;
  }
}
