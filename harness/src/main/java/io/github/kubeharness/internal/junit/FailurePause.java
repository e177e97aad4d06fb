package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.Clusters;
import io.github.kubeharness.PauseOnFailure;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.RunDirectory;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A failing test's pause before its teardown ({@code kubeharness.pauseOnFailure}): right after its
 * report is written, the test's thread waits with the cluster, the namespace and the controllers as
 * they were at the failure, until someone touches the resume file or the timeout passes. Meanwhile
 * {@code pause/kubeconfig} (0600, in a 0700 directory, its context set to the test's namespace;
 * with {@code clusters}, the first cluster's, and {@code pause/kubeconfig-<name>} for each other)
 * lets them look with {@code kubectl} or k9s without touching their own kubeconfig; it is deleted
 * when the test goes on, since the cluster it names is about to go.
 *
 * <p>The message goes to the test JVM's standard error: Surefire and Failsafe forward it to Maven's
 * console as it is written, and an IDE shows it in the test's console. Standard input is not read:
 * in a forked test JVM it is Surefire's own channel.
 *
 * @param enabled whether a failure pauses
 * @param timeout how long a pause waits for the resume file
 * @param note said at a failure when a pause was asked for but is off (in CI)
 */
public record FailurePause(boolean enabled, Duration timeout, Optional<String> note) {

  /** No pause. */
  public static final FailurePause NEVER = new FailurePause(false, Duration.ZERO, Optional.empty());

  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * The pause {@code mode} asks for, where {@code ciVariable} is the environment's {@code CI} (null
   * when unset): {@code true} does not pause in CI, where nobody is there to look and a build would
   * hang for the whole timeout; {@code always} does.
   */
  public static FailurePause of(PauseOnFailure mode, Duration timeout, String ciVariable) {
    boolean inCi =
        ciVariable != null && !ciVariable.isBlank() && !ciVariable.equalsIgnoreCase("false");
    return switch (mode) {
      case FALSE -> NEVER;
      case ALWAYS -> new FailurePause(true, timeout, Optional.empty());
      case TRUE ->
          inCi
              ? new FailurePause(
                  false,
                  timeout,
                  Optional.of(
                      "kube-harness: kubeharness.pauseOnFailure=true does not pause in CI (CI="
                          + ciVariable
                          + "); kubeharness.pauseOnFailure=always pauses there too"))
              : new FailurePause(true, timeout, Optional.empty());
    };
  }

  /**
   * Pauses, if enabled, after the report of {@code failure} was written to {@code reportDirectory}
   * ({@code .../reports/<class>/<method>}), with a kubeconfig for each of the test's {@code
   * clusters} (the first one's is {@code kubeconfig}); returns when the resume file is touched, the
   * timeout passes or the thread is interrupted.
   */
  void at(Path reportDirectory, Clusters clusters, Throwable failure, PrintStream terminal) {
    note.ifPresent(terminal::println);
    if (!enabled) {
      return;
    }
    Path report = reportDirectory.toAbsolutePath();
    Path pause = PrivateFiles.directory(report.resolve("pause"));
    Path resume = pause.resolve("resume");
    List<String> names = clusters.names();
    try {
      Files.deleteIfExists(resume);
      Path kubeconfig =
          PrivateFiles.write(
              pause.resolve("kubeconfig"),
              inNamespace(clusters.controlPlane(names.get(0)).kubeconfig(), clusters.namespace()));
      StringBuilder others = new StringBuilder();
      // With @ControllerTest(clusters): one more kubeconfig per further cluster, kubeconfig-<name>.
      for (String other : names.subList(1, names.size())) {
        Path file =
            PrivateFiles.write(
                pause.resolve("kubeconfig-" + other),
                inNamespace(clusters.controlPlane(other).kubeconfig(), clusters.namespace()));
        others
            .append("\n  Cluster ")
            .append(other)
            .append(": kubectl --kubeconfig ")
            .append(file)
            .append(" get all,events");
      }
      terminal.println(
          message(report, clusters.namespace(), kubeconfig, others.toString(), resume, failure));
      terminal.flush();
      String how = await(resume);
      terminal.println(
          "kube-harness: " + how + "; " + testName(report) + " goes on to its teardown");
    } catch (java.io.IOException e) {
      terminal.println("kube-harness: cannot pause on this failure: " + e);
    } finally {
      RunDirectory.deleteRecursively(pause);
    }
  }

  private String await(Path resume) {
    Instant deadline = Instant.now().plus(timeout);
    try {
      while (Instant.now().isBefore(deadline)) {
        if (Files.exists(resume)) {
          return "resumed";
        }
        Thread.sleep(POLL.toMillis());
      }
      return "paused "
          + timeout.toMinutes()
          + " min, the timeout (kubeharness.pauseOnFailure.minutes)";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "pause interrupted";
    }
  }

  // otherClusters: a line per further cluster of @ControllerTest(clusters), each starting "\n".
  private String message(
      Path report,
      String namespace,
      Path kubeconfig,
      String otherClusters,
      Path resume,
      Throwable failure) {
    String firstLine = String.valueOf(failure.getMessage()).lines().findFirst().orElse("");
    return String.join(
        "\n",
        "",
        "kube-harness: PAUSED at the failure of " + testName(report),
        "  " + failure.getClass().getSimpleName() + ": " + firstLine,
        "  The cluster, namespace " + namespace + " and the controllers are kept as they were.",
        "  Look:     kubectl --kubeconfig " + kubeconfig + " get all,events" + otherClusters,
        "  Report:   " + report,
        "  Go on:    touch " + resume + "   (or wait " + timeout.toMinutes() + " min)",
        "");
  }

  private static String testName(Path report) {
    return report.getParent().getFileName() + "." + report.getFileName();
  }

  /** {@code kubeconfig} with its current context's namespace set to {@code namespace}. */
  static String inNamespace(String kubeconfig, String namespace) {
    Config config = Serialization.unmarshal(kubeconfig, Config.class);
    for (NamedContext context : config.getContexts()) {
      if (context.getName().equals(config.getCurrentContext())) {
        context.getContext().setNamespace(namespace);
      }
    }
    return Serialization.asYaml(config);
  }
}
