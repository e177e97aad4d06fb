package io.github.kubeharness.internal.backend;

import io.github.kubeharness.Backend;
import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryResolver;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Turns {@link ControlPlaneOptions#backend()} into a control plane, deciding {@code auto}: {@code
 * existing} when {@code USE_EXISTING_CLUSTER=true}; {@code local} when the binaries are already
 * there (cheapest); {@code container} when Docker answers; else {@code local}, provisioning.
 */
public final class Backends {

  // Each distinct choice is explained once per JVM, not once per test class.
  private static final Set<String> EXPLAINED = ConcurrentHashMap.newKeySet();

  private Backends() {}

  /** A new, not yet started, control plane for {@code options}: what the harness itself uses. */
  public static HarnessControlPlane newControlPlane(ControlPlaneOptions options) {
    if (options.backendOptions() instanceof BackendOptions.Auto auto) {
      BackendOptions chosen = choose(options, auto);
      // The chosen backend's own options, and an unasked profile its default, as if it had been
      // named (what it cannot do is refused by build(), as for a named one).
      options = options.toBuilder().withBackend(chosen).build();
    }
    return switch (options.backend()) {
      case LOCAL ->
          new LocalControlPlane(options, options.backendOptions(BackendOptions.Local.class));
      case CONTAINER -> {
        TestcontainersSupport.require("The container backend");
        yield new ContainerControlPlane(
            options, options.backendOptions(BackendOptions.Container.class));
      }
      case K3S -> {
        TestcontainersSupport.requireK3s();
        yield new K3sControlPlane(options, options.backendOptions(BackendOptions.K3s.class));
      }
      case EXISTING -> new ExistingCluster(options);
      case KIND -> new KindControlPlane(options, options.backendOptions(BackendOptions.Kind.class));
      case AUTO -> throw new IllegalStateException("auto was resolved above");
    };
  }

  /**
   * A further cluster named {@code name} beside {@code first}, not yet started: on the local
   * backend an apiserver on {@code first}'s etcd under a key prefix of its own (a free keyspace of
   * the etcd seed, else {@code /registry-<name>}), which may start while {@code first} does; on the
   * container, k3s and kind backends a whole control plane of its own, made from {@code first}'s
   * options (they have no etcd to share: the container backend's is one per control plane, k3s's
   * and kind's are inside their node). Refused on the existing backend, naming {@code where} and
   * the backends that can.
   */
  public static HarnessControlPlane newClusterBeside(
      HarnessControlPlane first, String name, String where) {
    return newClusterBeside(first, name, false, where);
  }

  /**
   * As {@link #newClusterBeside(HarnessControlPlane, String, String)}; {@code ownEtcd}: on the
   * local backend too a whole control plane with an etcd of its own ({@code
   * kubeharness.clusters.etcd=own}).
   */
  public static HarnessControlPlane newClusterBeside(
      HarnessControlPlane first, String name, boolean ownEtcd, String where) {
    if (!first.backend().supports(Backend.Feature.CLUSTERS, null)) {
      throw first.backend().unsupported(Backend.Feature.CLUSTERS, null, where);
    }
    Optional<HarnessControlPlane> shared =
        ownEtcd ? Optional.empty() : first.clusterOnSharedEtcd(name);
    return shared.orElseGet(() -> newControlPlane(first.options()));
  }

  private static BackendOptions choose(ControlPlaneOptions options, BackendOptions.Auto auto) {
    Choice choice =
        decide(
            auto.existingCluster(),
            options.profile() == Profile.SIMULATED,
            () -> new BinaryResolver(options).isProvisioned(options.profile()),
            options.kubernetesVersion(),
            TestcontainersSupport::dockerStatus);
    Backend chosen = explain(choice.backend(), choice.reason(), options.progress());
    return switch (chosen) {
      case LOCAL -> auto.local();
      case CONTAINER -> auto.container();
      default -> BackendOptions.existing();
    };
  }

  /** What {@code auto} picked, and why (for the one line it prints). */
  record Choice(Backend backend, String reason) {}

  /**
   * The {@code auto} rule, on its inputs: each is asked only when the ones before did not decide
   * (the Docker probe costs a connection attempt).
   *
   * @param dockerProblem null when Docker answers, else why it does not
   */
  static Choice decide(
      boolean useExistingCluster,
      boolean simulated,
      BooleanSupplier provisioned,
      String kubernetesVersion,
      Supplier<String> dockerProblem) {
    if (useExistingCluster) {
      return new Choice(Backend.EXISTING, "USE_EXISTING_CLUSTER=true");
    }
    if (simulated) {
      return new Choice(Backend.LOCAL, "the simulated profile runs on the local backend only");
    }
    if (provisioned.getAsBoolean()) {
      return new Choice(
          Backend.LOCAL, "binaries for Kubernetes v" + kubernetesVersion + " are provisioned");
    }
    String docker = dockerProblem.get();
    if (docker == null) {
      return new Choice(Backend.CONTAINER, "no provisioned binaries, and Docker is reachable");
    }
    return new Choice(
        Backend.LOCAL,
        "no provisioned binaries and no Docker (" + docker + "): provisioning binaries");
  }

  private static Backend explain(Backend choice, String reason, Consumer<String> progress) {
    if (EXPLAINED.add(choice + reason)) {
      progress.accept(
          "backend auto -> "
              + choice.name().toLowerCase(java.util.Locale.ROOT)
              + ": "
              + reason
              + " (set kubeharness.backend / KUBE_HARNESS_BACKEND to choose)");
    }
    return choice;
  }
}
