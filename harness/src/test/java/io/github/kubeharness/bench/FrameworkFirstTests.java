package io.github.kubeharness.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code spring_first_test_ms} and {@code quarkus_first_test_ms}: each sample's GreetingOperatorIT
 * in a fresh JVM on the sample's own test class path ({@code make bench} builds the samples and
 * writes it), from the launch to the end of its first test: the control plane's start, the
 * framework's application start (Quarkus builds its application for the tests first) and that test.
 * What the first test class of a {@code mvn verify} waits for; compare with {@code
 * local_standard_start_ms} (the samples' profile) and {@code first_test_overhead_ms}.
 */
final class FrameworkFirstTests {

  // A fresh JVM each, with the framework's build or context: three samples, as the kind rows take.
  private static final int MAX_RUNS = 3;
  private static final String TEST_CLASS =
      "io.github.kubeharness.samples.greeting.GreetingOperatorIT";

  private FrameworkFirstTests() {}

  static void measure(BenchResults results, int runs) throws Exception {
    Path root = Path.of("").toAbsolutePath();
    Path launcher = launcherClasses();
    measure(
        results,
        "spring_first_test_ms",
        root.resolve("samples/spring-greeting"),
        launcher,
        List.of(),
        runs);
    measure(
        results,
        "quarkus_first_test_ms",
        root.resolve("samples/quarkus-greeting"),
        launcher,
        // As the sample's failsafe configuration sets them: Quarkus resolves the application's
        // modules in the workspace, and logs through JBoss LogManager.
        List.of(
            "-Dmaven.top-level-basedir=" + root,
            "-Djava.util.logging.manager=org.jboss.logmanager.LogManager"),
        runs);
  }

  private static void measure(
      BenchResults results,
      String name,
      Path sample,
      Path launcher,
      List<String> jvmOptions,
      int runs)
      throws Exception {
    Path classpathFile = sample.resolve("target/test-classpath.txt");
    if (!Files.isRegularFile(classpathFile)) {
      results.notMeasured(
          name, "no " + classpathFile + ": make bench builds the samples and writes it first");
      return;
    }
    String classpath =
        String.join(
            java.io.File.pathSeparator,
            sample.resolve("target/test-classes").toString(),
            sample.resolve("target/classes").toString(),
            Files.readString(classpathFile).strip(),
            launcher.toString());
    List<Double> samples = new ArrayList<>();
    for (int run = 0; run < Math.min(MAX_RUNS, runs); run++) {
      samples.add(firstTest(name, sample, classpath, jvmOptions));
    }
    results.record(name, samples);
  }

  /** One child JVM: the first test's time it prints; its last lines when it fails. */
  private static double firstTest(
      String name, Path sample, String classpath, List<String> jvmOptions) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", classpath, FrameworkFirstTest.class.getName(), TEST_CLASS));
    Process child =
        new ProcessBuilder(command).directory(sample.toFile()).redirectErrorStream(true).start();
    Deque<String> tail = new ArrayDeque<>();
    Double time = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()))) {
      for (String line; (line = out.readLine()) != null; ) {
        if (line.startsWith("FIRST_TEST ")) {
          time = Double.parseDouble(line.substring("FIRST_TEST ".length()));
        }
        tail.addLast(line);
        if (tail.size() > 30) {
          tail.removeFirst();
        }
      }
    }
    if (child.waitFor() != 0 || time == null) {
      throw new IllegalStateException(
          name
              + ": "
              + TEST_CLASS
              + " in "
              + sample
              + " failed (exit "
              + child.exitValue()
              + "); its last lines:\n"
              + String.join("\n", tail));
    }
    return time;
  }

  /**
   * A directory holding only {@link FrameworkFirstTest}: the bench's own test classes would bring
   * their service files and resources onto the sample's class path.
   */
  private static Path launcherClasses() throws Exception {
    Path classes =
        Path.of(
            FrameworkFirstTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String packagePath = FrameworkFirstTest.class.getPackageName().replace('.', '/');
    Path target = Path.of("target", "bench", "framework-launcher").toAbsolutePath();
    Path into = Files.createDirectories(target.resolve(packagePath));
    try (Stream<Path> files = Files.list(classes.resolve(packagePath))) {
      for (Path file : files.toList()) {
        String fileName = file.getFileName().toString();
        if (fileName.startsWith(FrameworkFirstTest.class.getSimpleName() + ".")
            || fileName.startsWith(FrameworkFirstTest.class.getSimpleName() + "$")) {
          Files.copy(
              file, into.resolve(fileName), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return target;
  }
}
