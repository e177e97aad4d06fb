package io.github.kubeharness.cli;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.Settings;
import io.github.kubeharness.assertions.KubeAssertions;
import io.github.kubeharness.internal.process.ShutdownHooks;
import io.github.kubeharness.internal.process.Watchdog;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The {@code kube-harness} command: {@code provision}, {@code up} and {@code env}. Run it as {@code
 * java -jar harness/target/kube-harness.jar <command>}.
 */
public final class KubeHarnessCli {

  private static final String USAGE =
      String.join(
          "\n",
          "usage: java -jar kube-harness.jar <command> [options]",
          "",
          "commands:",
          "  provision [--profile P] [--kubernetes-version V] [--with-kubectl] [--verify]",
          "        resolve or build the control-plane binaries and print where they are",
          "  up [--profile P] [--kubernetes-version V] [--kubeconfig PATH] [--install PATH]... [--run CMD]",
          "        start a control plane, write its admin kubeconfig, print `export KUBECONFIG=...`,",
          "        apply manifests (CRDs first, awaited), run CMD with KUBECONFIG set, and keep",
          "        running until Ctrl-C / SIGTERM (or until CMD exits)",
          "  env   print the effective settings",
          "",
          "options:",
          "  --profile minimal|standard     default: "
              + Settings.describe(Settings.PROFILE)
              + ", else minimal",
          "  --kubernetes-version V         default: "
              + Settings.describe(Settings.KUBERNETES_VERSION),
          "  --kubeconfig PATH              where `up` writes the admin kubeconfig",
          "  --install PATH                 `up`: manifests to apply (file, directory, classpath:), repeatable",
          "  --run CMD                      `up`: a command to run against the control plane (e.g. your operator)",
          "  --verify                       `provision`: check cached binaries against their SHA-256",
          "  --with-kubectl                 `provision`: also provide kubectl (built like the rest)",
          "");

  private final PrintStream out;

  KubeHarnessCli(PrintStream out) {
    this.out = out;
  }

  /** Entry point; exits with 0 on success, 1 on a failure, 2 on a usage error. */
  public static void main(String[] args) {
    quietLogging();
    int code;
    try {
      code = new KubeHarnessCli(System.out).run(args);
    } catch (KubeHarnessException e) {
      System.err.println("kube-harness: " + e.getMessage());
      code = 1;
    } catch (UsageException e) {
      System.err.println("kube-harness: " + e.getMessage() + "\n\n" + USAGE);
      code = 2;
    }
    System.exit(code);
  }

  // The CLI talks through its own output; library debug logs (fabric8, ...) would drown it.
  private static void quietLogging() {
    org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    if (root instanceof ch.qos.logback.classic.Logger logback) {
      logback.setLevel(ch.qos.logback.classic.Level.WARN);
    }
  }

  int run(String[] args) {
    Deque<String> rest = new ArrayDeque<>(List.of(args));
    String command = rest.poll();
    if (command == null
        || command.equals("-h")
        || command.equals("--help")
        || command.equals("help")) {
      out.print(USAGE);
      return command == null ? 2 : 0;
    }
    Options parsed = Options.parse(rest);
    return switch (command) {
      case "provision" -> provision(parsed);
      case "up" -> up(parsed);
      case "env" -> env(parsed);
      default -> throw new UsageException("unknown command '" + command + "'");
    };
  }

  private int provision(Options parsed) {
    ControlPlaneOptions options = parsed.controlPlaneOptions();
    BinaryResolver resolver = new BinaryResolver(options);
    Binaries binaries = resolver.resolve(options.profile(), parsed.withKubectl);
    if (parsed.verify) {
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
    binaries.kubectl().ifPresent(p -> out.println("kubectl=" + p));
    out.println("export KUBEBUILDER_ASSETS=" + binaries.kubeApiServer().getParent());
    return 0;
  }

  private int up(Options parsed) {
    ControlPlaneOptions options = parsed.controlPlaneOptions();
    long started = System.nanoTime();
    ControlPlane controlPlane = ControlPlane.local(options);
    controlPlane.start();
    Path kubeconfig = controlPlane.kubeconfigFile();
    if (parsed.kubeconfig != null) {
      kubeconfig = parsed.kubeconfig.toAbsolutePath();
      try {
        if (kubeconfig.getParent() != null) {
          Files.createDirectories(kubeconfig.getParent());
        }
        Files.writeString(kubeconfig, controlPlane.kubeconfig());
      } catch (IOException e) {
        controlPlane.stop();
        throw new KubeHarnessException(
            "Cannot write the kubeconfig to " + kubeconfig + ": " + e, e);
      }
    }
    out.printf(
        "# control plane (%s, Kubernetes v%s) ready at %s in %d ms; logs in %s%n",
        options.profile().settingValue(),
        options.kubernetesVersion(),
        controlPlane.apiServerUrl(),
        (System.nanoTime() - started) / 1_000_000,
        controlPlane.logDirectory().orElseThrow());
    if (!parsed.install.isEmpty()) {
      out.println("# applied " + controlPlane.apply(parsed.install) + " object(s)");
    }
    out.println("export KUBECONFIG=" + kubeconfig);
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
    if (parsed.run != null) {
      return runUntilExit(parsed.run, kubeconfig, controlPlane);
    }
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
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
      AutoCloseable stopChild =
          () -> {
            child.destroy();
            child.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            child.destroyForcibly();
          };
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

  /** Every setting with the value a control plane would use, then what is provisioned. */
  private int env(Options parsed) {
    ControlPlaneOptions options = parsed.controlPlaneOptions();
    for (Settings.Setting setting : Settings.ALL) {
      String effective = effectiveValue(setting.property(), options);
      out.println(
          setting.environmentVariable()
              + "="
              + (effective != null
                  ? effective
                  : setting.value().orElse("") + "  # default: " + setting.defaultValue()));
    }
    out.println("KUBEBUILDER_ASSETS=" + options.assetsDirectory().map(Path::toString).orElse(""));
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

  /** The resolved value of a setting the options hold, or null for the others. */
  private static String effectiveValue(String property, ControlPlaneOptions options) {
    return switch (property) {
      case Settings.BACKEND -> options.backend().settingValue();
      case Settings.PROFILE -> options.profile().settingValue();
      case Settings.KUBERNETES_VERSION -> options.kubernetesVersion();
      case Settings.NETWORK -> options.network().name().toLowerCase(java.util.Locale.ROOT);
      case Settings.OFFLINE -> Boolean.toString(options.offline());
      case Settings.CACHE_DIR -> options.cacheDirectory().toString();
      case Settings.RELEASE_INDEX_URL -> options.releaseIndex().toString();
      case Settings.START_TIMEOUT_SECONDS -> seconds(options.startTimeout());
      case Settings.EVENTUALLY_TIMEOUT_SECONDS -> seconds(KubeAssertions.defaultTimeout());
      default -> null;
    };
  }

  private static String seconds(java.time.Duration duration) {
    return java.math.BigDecimal.valueOf(duration.toMillis(), 3)
        .stripTrailingZeros()
        .toPlainString();
  }

  /** A command-line mistake: printed with the usage text, exit code 2. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message);
    }
  }

  private static final class Options {
    Profile profile;
    String kubernetesVersion;
    Path kubeconfig;
    boolean verify;
    boolean withKubectl;
    final java.util.List<String> install = new java.util.ArrayList<>();
    String run;

    static Options parse(Deque<String> args) {
      Options o = new Options();
      while (!args.isEmpty()) {
        String arg = args.poll();
        String value = null;
        if (arg.contains("=")) {
          value = arg.substring(arg.indexOf('=') + 1);
          arg = arg.substring(0, arg.indexOf('='));
        }
        switch (arg) {
          case "--profile" -> o.profile = Profile.parse(valueOf(arg, value, args), "--profile");
          case "--kubernetes-version" -> o.kubernetesVersion = valueOf(arg, value, args);
          case "--kubeconfig" -> o.kubeconfig = Path.of(valueOf(arg, value, args));
          case "--verify" -> o.verify = true;
          case "--with-kubectl" -> o.withKubectl = true;
          case "--install" -> o.install.add(valueOf(arg, value, args));
          case "--run" -> o.run = valueOf(arg, value, args);
          default -> throw new UsageException("unknown option '" + arg + "'");
        }
      }
      return o;
    }

    private static String valueOf(String flag, String inline, Deque<String> args) {
      if (inline != null) {
        return inline;
      }
      String next = args.poll();
      if (next == null || next.startsWith("--")) {
        throw new UsageException(flag + " needs a value");
      }
      return next;
    }

    ControlPlaneOptions controlPlaneOptions() {
      ControlPlaneOptions.Builder builder = ControlPlaneOptions.builder();
      if (profile != null) {
        builder.withProfile(profile);
      }
      if (kubernetesVersion != null) {
        builder.withKubernetesVersion(kubernetesVersion);
      }
      return builder.build();
    }
  }
}
