package io.github.kubeharness.cli;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.internal.process.ManagedProcess;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.ShutdownHooks;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.launch.ControlPlanes;
import io.github.kubeharness.settings.HarnessSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kube-harness up}: a control plane until Ctrl-C / SIGTERM, or until the command given with
 * {@code --run} exits, or kept for the next JVMs ({@code --reuse}).
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description = {
      "Start a control plane (of the chosen backend), write its admin kubeconfig, print `export KUBECONFIG=...`, apply"
          + " manifests (CRDs first, awaited), run a command with KUBECONFIG set, and keep"
          + " running until Ctrl-C / SIGTERM (or until the command exits)."
    })
final class UpCommand implements Callable<Integer> {
  final ControlPlaneArgs controlPlane = new ControlPlaneArgs();
  private final PrintStream out;

  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description =
          "Where to write the admin kubeconfig: a new owner-only file; an existing path is"
              + " replaced only if it is a regular file of yours, never written through a link.")
  Path kubeconfigPath;

  @Option(
      names = "--install",
      paramLabel = "PATH",
      description = "Manifests to apply (file, directory, classpath:); repeatable.")
  List<String> install = new ArrayList<>();

  @Option(
      names = "--run",
      paramLabel = "CMD",
      description = "A command to run against the control plane (e.g. your operator).")
  String run;

  UpCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    ControlPlaneOptions options = controlPlane.options("up");
    requireStartable(options);
    // Kept (--reuse): the control plane @ControllerTest asks for (audit log on), for the next
    // JVMs; up returns at once and kube-harness down stops it.
    boolean reuse = options.reuse();
    if (reuse) {
      options = options.toBuilder().withAuditLog(true).build();
    }
    if (kubeconfigPath != null) {
      // A link or another user's file there is refused before a control plane is started for it.
      PrivateFiles.requireWritable(kubeconfigPath.toAbsolutePath());
    }
    long started = System.nanoTime();
    ControlPlane controlPlane = ControlPlanes.create(options);
    controlPlane.start();
    Path kubeconfig = controlPlane.kubeconfigFile();
    if (kubeconfigPath != null) {
      kubeconfig = kubeconfigPath.toAbsolutePath();
      try {
        if (kubeconfig.getParent() != null) {
          Files.createDirectories(kubeconfig.getParent());
        }
        PrivateFiles.write(kubeconfig, controlPlane.kubeconfig());
      } catch (IOException e) {
        controlPlane.stop();
        throw new KubeHarnessException(
            "Cannot write the kubeconfig to " + kubeconfig + ": " + e, e);
      } catch (RuntimeException e) {
        controlPlane.stop(); // refused: something appeared at the path meanwhile
        throw e;
      }
    }
    boolean keptForOthers = reuse && run == null;
    if (!keptForOthers) {
      // Ctrl-C / SIGTERM: stop the control plane from a shutdown hook and say so once it is down
      // (what is left after a kill -9 is the watchdog's to remove; this line tells the two apart).
      // Registered before the ready line, so that a Ctrl-C right after it is not missed.
      ShutdownHooks.register(
          () -> {
            controlPlane.stop();
            out.println("# control plane stopped");
            out.flush();
          });
    }
    out.printf(
        "# control plane (%s, %s, Kubernetes v%s) ready at %s in %d ms; logs in %s%n",
        controlPlane.backend().settingValue(),
        controlPlane.profile().settingValue(),
        options.kubernetesVersion(),
        controlPlane.apiServerUrl(),
        (System.nanoTime() - started) / 1_000_000,
        controlPlane.logDirectory().map(Path::toString).orElse("the backend's own"));
    if (!install.isEmpty()) {
      out.println("# applied " + controlPlane.apply(install) + " object(s)");
    }
    out.println("export KUBECONFIG=" + kubeconfig);
    if (keptForOthers) {
      out.println(
          "# kept for the next JVMs ("
              + HarnessSettings.REUSE_IDLE_MINUTES
                  .effective(options)
                  .filter(minutes -> controlPlane.backend() == Backend.LOCAL)
                  .map(
                      minutes ->
                          "stops after " + minutes + " min unused, or with kube-harness down)")
                  .orElse("stays until you delete it)"));
      out.flush();
      controlPlane.stop(); // detaches: the keeper has it
      return 0;
    }
    out.println("# press Ctrl-C to stop");
    out.flush();
    if (run != null) {
      return runUntilExit(run, kubeconfig, controlPlane);
    }
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  // `up` starts a cluster; the existing backend has none to start (what a backend cannot keep was
  // refused when the options were built).
  private static void requireStartable(ControlPlaneOptions options) {
    if (options.backend() == Backend.EXISTING) {
      throw new KubeHarnessException(
          "kube-harness up starts a control plane, and the existing backend starts none: it uses"
              + " the cluster of your kubeconfig as it is. Use that kubeconfig directly, or choose"
              + " a backend that starts one: --backend local|container|k3s|kind (or auto).");
    }
  }

  // The command shares this terminal; it is stopped before the control plane at exit (shutdown
  // hooks close the last registered first) and dies with the JVM even on kill -9 (watchdog).
  private int runUntilExit(String command, Path kubeconfig, ControlPlane controlPlane) {
    out.println("# running: " + command);
    out.flush();
    try {
      ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", "exec " + command).inheritIO();
      builder.environment().put("KUBECONFIG", kubeconfig.toString());
      Process child = builder.start();
      Watchdog.get().watch(child.pid());
      AutoCloseable stopChild = () -> ManagedProcess.stop(command, child, Duration.ofSeconds(10));
      ShutdownHooks.register(stopChild);
      int code = child.waitFor();
      if (ShutdownHooks.shuttingDown()) {
        return code; // Ctrl-C / SIGTERM: the hooks stop everything; nothing to report
      }
      ShutdownHooks.unregister(stopChild);
      System.err.println(
          "kube-harness: `"
              + command
              + "` exited with code "
              + code
              + "; stopping the control plane");
      controlPlane.stop();
      return code;
    } catch (IOException e) {
      controlPlane.stop();
      throw new KubeHarnessException("Cannot run `" + command + "`: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 130;
    }
  }
}
