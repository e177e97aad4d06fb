package io.github.kubeharness.internal.shared;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What makes two control planes different, as a value: options with equal keys get one control
 * plane in this JVM ({@link RunningControlPlanes}), whoever asks — a {@code @ControllerTest} class,
 * a Spring context, a Quarkus test resource. What only says how a control plane is obtained or
 * reported (start timeout, offline, release index, Go command, cache directory, progress, origin)
 * is left out: two askers that differ there still want the same API server.
 *
 * @param backend the backend and its own options (images, network, simulated nodes, ...)
 * @param assetsDirectory prebuilt binaries ({@code KUBEBUILDER_ASSETS}): another build of the same
 *     version is another control plane
 * @param binaries single binaries named in code or by envtest's {@code TEST_ASSET_<NAME>}, for the
 *     same reason
 * @param beside a further cluster of {@code @ControllerTest(clusters)} beside the control plane of
 *     the other components; empty for that control plane itself
 */
public record ControlPlaneKey(
    BackendOptions backend,
    Profile profile,
    String kubernetesVersion,
    boolean auditLog,
    List<String> extraApiServerFlags,
    boolean reuse,
    Optional<Path> assetsDirectory,
    Map<String, Path> binaries,
    Optional<Beside> beside) {

  /**
   * A further cluster named {@code name}, on the first cluster's etcd unless {@code ownEtcd}.
   *
   * @param name the cluster's name in {@code @ControllerTest(clusters)}
   * @param ownEtcd a whole control plane of its own ({@code kubeharness.clusters.etcd=own})
   */
  public record Beside(String name, boolean ownEtcd) {}

  public ControlPlaneKey {
    extraApiServerFlags = List.copyOf(extraApiServerFlags);
    binaries = Map.copyOf(binaries);
  }

  /** The key of the control plane {@code options} describe. */
  public static ControlPlaneKey of(ControlPlaneOptions options) {
    return new ControlPlaneKey(
        options.backendOptions(),
        options.profile(),
        options.kubernetesVersion(),
        options.auditLog(),
        options.extraApiServerFlags(),
        options.reuse(),
        options.assetsDirectory(),
        options.binaries(),
        Optional.empty());
  }

  /** The key of cluster {@code name} beside this key's control plane. */
  ControlPlaneKey beside(String name, boolean ownEtcd) {
    return new ControlPlaneKey(
        backend,
        profile,
        kubernetesVersion,
        auditLog,
        extraApiServerFlags,
        reuse,
        assetsDirectory,
        binaries,
        Optional.of(new Beside(name, ownEtcd)));
  }
}
