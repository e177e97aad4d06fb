package io.github.kubeharness.cli;

import io.github.kubeharness.internal.reuse.KeptControlPlane;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code kube-harness down}: stop every kept control plane. */
@Command(
    name = "down",
    mixinStandardHelpOptions = true,
    description = "Stop every control plane kept for reuse (kubeharness.reuse, up --reuse).")
final class DownCommand implements Callable<Integer> {
  final ControlPlaneArgs controlPlane = new ControlPlaneArgs();
  private final PrintStream out;

  DownCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    int stopped = KeptControlPlane.stopAll(controlPlane.options("down").cacheDirectory());
    out.println("# stopped " + stopped + " kept control plane(s)");
    return 0;
  }
}
