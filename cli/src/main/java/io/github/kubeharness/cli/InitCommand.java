package io.github.kubeharness.cli;

import io.github.kubeharness.internal.scaffold.Scaffold;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kube-harness init}: a new operator project (kubebuilder's first step). */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description = {
      "Write a new operator project into DIR (absent or empty), named after DIR: a Maven build"
          + " with kube-harness as test dependency, the main class, config/ (kustomize), a"
          + " kubebuilder-style Makefile, README and CI. Then add kinds with create api."
    })
final class InitCommand implements Callable<Integer> {

  private final PrintStream out;

  @Option(
      names = "--domain",
      required = true,
      paramLabel = "D",
      description = "Suffix of the kinds' API groups, e.g. my.domain.")
  String domain;

  @Option(
      names = "--package",
      required = true,
      paramLabel = "P",
      description = "Root Java package (and the Maven groupId), e.g. com.example.guestbook.")
  String javaPackage;

  @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Where to write it.")
  Path dir;

  InitCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    List<String> files = Scaffold.init(dir, domain, javaPackage);
    files.forEach(f -> out.println("wrote " + dir.resolve(f)));
    out.println("# next: kube-harness create api --group G --version V --kind K --dir " + dir);
    return 0;
  }
}
