package io.github.kubeharness.cli;

import io.github.kubeharness.internal.scaffold.Scaffold;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kube-harness create}: adds to a generated project; {@code create api} adds a kind. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = "Add to a project kube-harness init made.",
    subcommands = CreateCommand.Api.class)
final class CreateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** No subcommand: the usage, as a usage error. */
  @Override
  public Integer call() {
    spec.commandLine().usage(System.err);
    return CommandLine.ExitCode.USAGE;
  }

  /** {@code create api}: a kind (kubebuilder's second step). */
  // NB: no mixinStandardHelpOptions here: its --version would clash with the API version's.
  @Command(
      name = "api",
      description = {
        "Add a kind to the project in DIR: a CRD class with spec, status and a CEL rule, a JOSDK"
            + " reconciler owning a Deployment, its RBAC rules, a sample, and @ControllerTest"
            + " tests under the project's own RBAC. Refuses a kind the project has already."
      })
  static final class Api implements Callable<Integer> {

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "Show this help message and exit.")
    boolean help;

    @Option(
        names = "--group",
        required = true,
        paramLabel = "G",
        description = "API group, before the domain: webapp gives webapp.<domain>.")
    String group;

    @Option(
        names = "--version",
        required = true,
        paramLabel = "V",
        description = "API version, e.g. v1, v1alpha1.")
    String version;

    @Option(
        names = "--kind",
        required = true,
        paramLabel = "K",
        description = "Kind, upper camel case, e.g. Guestbook.")
    String kind;

    @Option(
        names = "--dir",
        paramLabel = "DIR",
        description = "The project (default: the current directory).")
    Path dir = Path.of(".");

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      List<String> files = Scaffold.createApi(dir, group, version, kind);
      java.io.PrintWriter writer = spec.commandLine().getOut();
      files.forEach(f -> writer.println("wrote " + dir.resolve(f)));
      writer.println("# next: mvn verify (the new tests run against a real API server)");
      writer.flush();
      return 0;
    }
  }
}
