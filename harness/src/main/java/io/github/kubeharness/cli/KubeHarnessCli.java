package io.github.kubeharness.cli;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Versions;
import io.github.kubeharness.internal.controlplane.Kwok;
import io.github.kubeharness.internal.process.ManagedProcess;
import io.github.kubeharness.internal.process.PrivateFiles;
import io.github.kubeharness.internal.process.ShutdownHooks;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import io.github.kubeharness.internal.provision.KubernetesReleases;
import io.github.kubeharness.internal.reuse.KeptControlPlane;
import io.github.kubeharness.settings.HarnessSettings;
import io.github.kubeharness.settings.Setting;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code kube-harness} command: {@code provision}, {@code up}, {@code env}, {@code down}, and
 * the project generator {@code init} and {@code create api}, parsed by picocli. Run it as {@code
 * java -jar harness/target/kube-harness.jar <command>}. Exit codes: 0 success, 1 a failure (its
 * message on standard error), 2 a usage error (with the usage).
 */
@Command(
    name = "kube-harness",
    mixinStandardHelpOptions = true,
    version = "kube-harness (default Kubernetes v" + Versions.KUBERNETES + ")",
    description = "Real Kubernetes control planes for tests.",
    commandListHeading = "%nCommands:%n")
public final class KubeHarnessCli implements Callable<Integer> {

  private final PrintStream out;

  KubeHarnessCli(PrintStream out) {
    this.out = out;
  }

  /** Entry point; exits with 0 on success, 1 on a failure, 2 on a usage error. */
  public static void main(String[] args) {
    quietLogging();
    System.exit(new KubeHarnessCli(System.out).run(args));
  }

  // The CLI talks through its own output; library debug logs (fabric8, ...) would drown it.
  private static void quietLogging() {
    org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    if (root instanceof ch.qos.logback.classic.Logger logback) {
      logback.setLevel(ch.qos.logback.classic.Level.WARN);
      // fabric8 warns once per alpha/beta version a client touches; the CRD installer lists every
      // served version of a CRD to see its watch cache ready, so `up --install` of a CRD serving
      // v1alpha1 beside v1 (the Guestbook's) would warn about a read the user never made.
      org.slf4j.Logger versions =
          org.slf4j.LoggerFactory.getLogger(
              "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");
      if (versions instanceof ch.qos.logback.classic.Logger logger) {
        logger.setLevel(ch.qos.logback.classic.Level.ERROR);
      }
    }
  }

  int run(String[] args) {
    Provision provision = new Provision();
    Up up = new Up();
    Env env = new Env();
    Down down = new Down();
    CommandLine cli =
        new CommandLine(this)
            .addSubcommand(provision)
            .addSubcommand(up)
            .addSubcommand(env)
            .addSubcommand(down)
            .addSubcommand(new InitCommand(out))
            .addSubcommand(new CreateCommand())
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(new PrintWriter(out, true))
            .setParameterExceptionHandler(
                (e, arguments) -> {
                  System.err.println("kube-harness: " + e.getMessage());
                  e.getCommandLine().usage(System.err);
                  return CommandLine.ExitCode.USAGE;
                })
            .setExecutionExceptionHandler(
                (e, command, parsed) -> {
                  if (e instanceof KubeHarnessException) {
                    System.err.println("kube-harness: " + e.getMessage());
                    return 1;
                  }
                  throw e;
                });
    provision.controlPlane.settings.addTo(cli.getSubcommands().get("provision").getCommandSpec());
    up.controlPlane.settings.addTo(cli.getSubcommands().get("up").getCommandSpec());
    env.controlPlane.settings.addTo(cli.getSubcommands().get("env").getCommandSpec());
    down.controlPlane.settings.addTo(cli.getSubcommands().get("down").getCommandSpec());
    return cli.execute(args);
  }

  /** No command: the usage, as a usage error. */
  @Override
  public Integer call() {
    new CommandLine(this).usage(out);
    return CommandLine.ExitCode.USAGE;
  }

  /**
   * The options every command shares: which control plane, one option per setting that names one
   * ({@link SettingOptions}, added to each command in {@link #run}).
   */
  static final class ControlPlaneArgs {
    final SettingOptions settings = new SettingOptions();

    /**
     * The options, resolved once; {@code origin} names the command in messages. A version given as
     * a minor (1.36) becomes its newest patch that can be had.
     */
    ControlPlaneOptions options(String origin) {
      String minor = settings.given(HarnessSettings.KUBERNETES_VERSION);
      ControlPlaneOptions.Builder builder = ControlPlaneOptions.builder().withOrigin(origin);
      if (minor != null) {
        ControlPlaneOptions withoutVersion =
            settings.resolve(
                ControlPlaneOptions.builder()
                    .withOrigin(origin)
                    .withKubernetesVersion(Versions.KUBERNETES));
        builder.withKubernetesVersion(new KubernetesReleases(withoutVersion).resolve(minor));
      }
      return settings.resolve(builder);
    }
  }

  @Command(
      name = "provision",
      mixinStandardHelpOptions = true,
      description = "Resolve or build the control-plane binaries and print where they are.")
  final class Provision implements Callable<Integer> {
    final ControlPlaneArgs controlPlane = new ControlPlaneArgs();

    @Option(names = "--with-kubectl", description = "Also provide kubectl (built like the rest).")
    boolean withKubectl;

    @Option(
        names = "--with-node",
        description =
            "Also provide a node's binaries: kubelet, kubeadm, kube-scheduler, kube-proxy (for the"
                + " kind node image; a Go build of several minutes the first time).")
    boolean withNode;

    @Option(names = "--verify", description = "Check cached binaries against their SHA-256.")
    boolean verify;

    @Override
    public Integer call() {
      ControlPlaneOptions options = controlPlane.options("provision");
      BinaryResolver resolver = new BinaryResolver(options);
      Map<Component, Path> node = Map.of();
      if (withNode) {
        // One build for everything missing: the Go module resolution is shared.
        Set<Component> all = BinaryResolver.needed(options.profile(), withKubectl);
        all.addAll(Component.NODE);
        node = resolver.resolve(all, new LinkedHashSet<>());
        node.keySet().retainAll(Component.NODE);
      }
      Binaries binaries = resolver.resolve(options.profile(), withKubectl);
      // The simulated profile's KWOK: a Go module of its own, built once into the tools cache.
      Path kwok = options.profile().runs(Profile.Component.KWOK) ? Kwok.binary(options) : null;
      if (verify) {
        for (Component c : Component.values()) {
          resolver.cache().verify(c);
        }
        out.println("# cached binaries match their recorded SHA-256");
      }
      out.println(
          "# Kubernetes v" + options.kubernetesVersion() + " binaries (" + binaries.origin() + ")");
      out.println("etcd=" + binaries.etcd());
      out.println("kube-apiserver=" + binaries.kubeApiServer());
      binaries.kubeControllerManager().ifPresent(p -> out.println("kube-controller-manager=" + p));
      if (!node.containsKey(Component.KUBE_SCHEDULER)) {
        binaries.kubeScheduler().ifPresent(p -> out.println("kube-scheduler=" + p));
      }
      if (kwok != null) {
        out.println("kwok=" + kwok);
      }
      binaries.kubectl().ifPresent(p -> out.println("kubectl=" + p));
      node.forEach((c, p) -> out.println(c.fileName() + "=" + p));
      out.println("export KUBEBUILDER_ASSETS=" + binaries.kubeApiServer().getParent());
      return 0;
    }
  }

  @Command(
      name = "up",
      mixinStandardHelpOptions = true,
      description = {
        "Start a control plane (of the chosen backend), write its admin kubeconfig, print `export KUBECONFIG=...`, apply"
            + " manifests (CRDs first, awaited), run a command with KUBECONFIG set, and keep"
            + " running until Ctrl-C / SIGTERM (or until the command exits)."
      })
  final class Up implements Callable<Integer> {
    final ControlPlaneArgs controlPlane = new ControlPlaneArgs();

    @Option(
        names = "--kubeconfig",
        paramLabel = "PATH",
        description = "Where to write the admin kubeconfig.")
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
      long started = System.nanoTime();
      ControlPlane controlPlane = ControlPlane.create(options);
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
        }
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
      if (reuse && run == null) {
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
      // Ctrl-C / SIGTERM: stop the control plane from a shutdown hook and say so once it is down
      // (what is left after a kill -9 is the watchdog's to remove; this line tells the two apart).
      ShutdownHooks.register(
          () -> {
            controlPlane.stop();
            out.println("# control plane stopped");
            out.flush();
          });
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

  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      description = "Stop every control plane kept for reuse (kubeharness.reuse, up --reuse).")
  final class Down implements Callable<Integer> {
    final ControlPlaneArgs controlPlane = new ControlPlaneArgs();

    @Override
    public Integer call() {
      int stopped = KeptControlPlane.stopAll(controlPlane.options("down").cacheDirectory());
      out.println("# stopped " + stopped + " kept control plane(s)");
      return 0;
    }
  }

  @Command(
      name = "env",
      mixinStandardHelpOptions = true,
      description =
          "Print every setting with the value a control plane would use, then what is provisioned.")
  final class Env implements Callable<Integer> {
    final ControlPlaneArgs controlPlane = new ControlPlaneArgs();

    @Option(
        names = "--markdown",
        description =
            "Print the settings reference table of docs/configuration.md instead (it is"
                + " generated by this).")
    boolean markdown;

    @Option(
        names = "--capabilities",
        description =
            "Print the capability tables of docs/backends.md instead: what each backend runs and"
                + " offers, what each profile runs (generated by this).")
    boolean capabilities;

    @Option(
        names = "--attributes",
        description =
            "Print the @ControllerTest attribute table of docs/controller-test.md instead"
                + " (generated by this).")
    boolean attributes;

    @Override
    public Integer call() {
      if (markdown) {
        out.print(ConfigurationReference.markdown());
        return 0;
      }
      if (capabilities) {
        out.print(CapabilityMatrix.markdown());
        return 0;
      }
      if (attributes) {
        out.print(AttributeReference.markdown());
        return 0;
      }
      ControlPlaneOptions options = controlPlane.options("env");
      // Each setting as the resolved options hold it; one they hold no value of, with its default.
      for (Setting<?> setting : HarnessSettings.ALL) {
        out.println(
            setting.environmentVariable()
                + "="
                + setting
                    .effective(options)
                    .orElseGet(
                        () ->
                            Optional.ofNullable(controlPlane.settings.given(setting)).orElse("")
                                + "  # default: "
                                + setting.defaultValue()));
      }
      options.binaries().forEach((name, file) -> out.println("# " + name + ": " + file));
      BinaryResolver resolver = new BinaryResolver(options);
      for (Component c : Component.values()) {
        out.println(
            "# "
                + c.fileName()
                + ": "
                + resolver.cache().find(c).map(p -> "cached at " + p).orElse("not cached"));
      }
      return 0;
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
