package io.github.kubeharness.cli;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.Binaries;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.internal.provision.Component;
import io.github.kubeharness.internal.provision.GoTools;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kube-harness provision}: resolve or build the binaries and print where they are. */
@Command(
    name = "provision",
    mixinStandardHelpOptions = true,
    description = "Resolve or build the control-plane binaries and print where they are.")
final class ProvisionCommand implements Callable<Integer> {
  final ControlPlaneArgs controlPlane = new ControlPlaneArgs();
  private final PrintStream out;

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

  ProvisionCommand(PrintStream out) {
    this.out = out;
  }

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
    Path kwok = options.profile().runs(Profile.Component.KWOK) ? GoTools.kwok(options) : null;
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
