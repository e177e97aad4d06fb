package io.github.kubeharness.internal.backend;

import io.github.kubeharness.Backend;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryResolver;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
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
    Backend backend = options.backend();
    if (backend == Backend.AUTO) {
      backend = choose(options);
      // An unasked profile is the chosen backend's default, as if it had been named.
      options = options.toBuilder().withBackend(backend).build();
    }
    requireCapable(options, "The control plane options");
    return switch (backend) {
      case LOCAL -> new LocalControlPlane(options);
      case CONTAINER -> TestcontainersSupport.container(options);
      case K3S -> TestcontainersSupport.k3s(options);
      case EXISTING -> new ExistingCluster(options);
      case KIND -> new KindControlPlane(options);
      case AUTO -> throw new IllegalStateException("auto was resolved above");
    };
  }

  /**
   * Refuses, before anything starts, a profile the backend does not run or reuse on a backend that
   * keeps nothing ({@link Backend#requireProfile}, {@link Backend#require}).
   *
   * @param where the culprit, as the message names it
   */
  public static void requireCapable(ControlPlaneOptions options, String where) {
    Backend backend = options.backend();
    if (options.profileAsked()) {
      backend.requireProfile(options.profile(), where);
    }
    if (options.reuse()) {
      backend.require(Backend.Feature.REUSE, options.network(), where);
    }
  }

  /**
   * {@code controlPlane} as kube-harness made it, checked once where a control plane enters from
   * the public API ({@link io.github.kubeharness.webhooks.Webhooks#serve}): a class of the user's
   * own implementing {@link ControlPlane} is refused there, before anything is served.
   */
  public static HarnessControlPlane ours(ControlPlane controlPlane, String where) {
    if (controlPlane instanceof HarnessControlPlane ours) {
      return ours;
    }
    throw new KubeHarnessException(
        where
            + " needs a control plane made by kube-harness (ControlPlane.create); "
            + controlPlane.getClass().getName()
            + " is not one.");
  }

  private static Backend choose(ControlPlaneOptions options) {
    Choice choice =
        decide(
            "true".equalsIgnoreCase(System.getenv("USE_EXISTING_CLUSTER")),
            options.profile() == Profile.SIMULATED,
            () -> new BinaryResolver(options).isProvisioned(options.profile()),
            options.kubernetesVersion(),
            TestcontainersSupport::dockerStatus);
    return explain(choice.backend(), choice.reason(), options);
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

  private static Backend explain(Backend choice, String reason, ControlPlaneOptions options) {
    if (EXPLAINED.add(choice + reason)) {
      options
          .progress()
          .accept(
              "backend auto -> "
                  + choice.name().toLowerCase(java.util.Locale.ROOT)
                  + ": "
                  + reason
                  + " (set kubeharness.backend / KUBE_HARNESS_BACKEND to choose)");
    }
    return choice;
  }

  /** For messages: what a user can do when a backend is not available. */
  static KubeHarnessException unavailable(String what, String why, Throwable cause) {
    return new KubeHarnessException(
        what
            + " is not available: "
            + why
            + ". Other ways to get a cluster: -Dkubeharness.backend=local (etcd and kube-apiserver"
            + " as processes; binaries are built from Go modules or taken from"
            + " KUBEBUILDER_ASSETS), or -Dkubeharness.backend=existing with a kubeconfig (kind).",
        cause);
  }
}
