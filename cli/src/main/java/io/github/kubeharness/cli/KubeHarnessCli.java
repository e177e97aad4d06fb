package io.github.kubeharness.cli;

import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Versions;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kube-harness} command: {@code provision}, {@code up}, {@code env}, {@code down}, and
 * the project generator {@code init} and {@code create api}, parsed by picocli. Run it as {@code
 * java -jar target/kube-harness.jar <command>}. Exit codes: 0 success, 1 a failure (its message on
 * standard error), 2 a usage error (with the usage). One class per command; this one wires them and
 * the handling of errors.
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
    ProvisionCommand provision = new ProvisionCommand(out);
    UpCommand up = new UpCommand(out);
    EnvCommand env = new EnvCommand(out);
    DownCommand down = new DownCommand(out);
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
}
