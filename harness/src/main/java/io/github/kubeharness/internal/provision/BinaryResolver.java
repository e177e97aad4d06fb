package io.github.kubeharness.internal.provision;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds or provisions the control plane's binaries for one Kubernetes version. Each binary is
 * looked up in this order, the first hit winning:
 *
 * <ol>
 *   <li>envtest's {@code TEST_ASSET_<NAME>} variable, then {@code KUBEBUILDER_ASSETS/<name>};
 *   <li>the cache, {@code ~/.cache/kube-harness/k8s/<version>-<os>-<arch>/};
 *   <li>the envtest release archive, downloaded and checksum-verified (not in offline mode; it has
 *       no kube-controller-manager);
 *   <li>a build from Go modules with the local Go toolchain: the {@code go} command on the PATH, or
 *       the executable that {@link ControlPlaneOptions#goCommand()} names ({@code kubeharness.go} /
 *       {@code KUBE_HARNESS_GO}).
 * </ol>
 *
 * Provisioning (steps 3 and 4) holds the cache's lock, so concurrent JVMs wait for one another.
 */
public final class BinaryResolver {

  private final ControlPlaneOptions options;
  private final BinaryCache cache;

  public BinaryResolver(ControlPlaneOptions options) {
    this.options = options;
    this.cache =
        new BinaryCache(options.cacheDirectory(), options.kubernetesVersion(), Platform.current());
  }

  /** The cache this resolver installs into. */
  public BinaryCache cache() {
    return cache;
  }

  /** Whether everything {@code profile} needs is found without provisioning anything. */
  public boolean isProvisioned(Profile profile) {
    try {
      return needed(profile, false).stream()
          .allMatch(c -> lookUp(c, new LinkedHashSet<>()).isPresent());
    } catch (KubeHarnessException e) {
      return false;
    }
  }

  /** Resolves what {@code profile} needs, provisioning missing binaries. */
  public Binaries resolve(Profile profile) {
    return resolve(profile, false);
  }

  /**
   * Resolves what {@code profile} needs and, when {@code withKubectl}, kubectl too (for the Make
   * targets and the e2e suite, which render kustomize manifests with it).
   */
  public Binaries resolve(Profile profile, boolean withKubectl) {
    Set<String> origins = new LinkedHashSet<>();
    Map<Component, Path> found = resolve(needed(profile, withKubectl), origins);
    Optional<Path> kubectl =
        withKubectl
            ? Optional.of(found.get(Component.KUBECTL))
            : lookUp(Component.KUBECTL, new LinkedHashSet<>());
    return new Binaries(
        found.get(Component.ETCD),
        found.get(Component.KUBE_APISERVER),
        Optional.ofNullable(found.get(Component.KUBE_CONTROLLER_MANAGER)),
        Optional.ofNullable(found.get(Component.KUBE_SCHEDULER)),
        kubectl,
        String.join(" + ", origins));
  }

  /**
   * Resolves {@code components}, provisioning the missing ones (built from Go modules when no
   * download has them, as the node's binaries never are); adds where they came from to {@code
   * origins}.
   */
  public Map<Component, Path> resolve(Set<Component> components, Set<String> origins) {
    Map<Component, Path> found = new EnumMap<>(Component.class);
    for (Component c : components) {
      lookUp(c, origins).ifPresent(p -> found.put(c, p));
    }
    if (found.size() < components.size()) {
      provision(components, found, origins);
    }
    return found;
  }

  /** The binaries {@code profile} needs, plus kubectl when asked. */
  public static Set<Component> needed(Profile profile, boolean withKubectl) {
    Set<Component> needed = EnumSet.noneOf(Component.class);
    for (Profile.Component c : profile.components()) {
      binaryOf(c).ifPresent(needed::add);
    }
    if (withKubectl) {
      needed.add(Component.KUBECTL);
    }
    return needed;
  }

  /** The Kubernetes release binary of a profile's component; KWOK is a Go tool of its own. */
  static Optional<Component> binaryOf(Profile.Component component) {
    return switch (component) {
      case ETCD -> Optional.of(Component.ETCD);
      case KUBE_APISERVER -> Optional.of(Component.KUBE_APISERVER);
      case KUBE_CONTROLLER_MANAGER -> Optional.of(Component.KUBE_CONTROLLER_MANAGER);
      case KUBE_SCHEDULER -> Optional.of(Component.KUBE_SCHEDULER);
      case KWOK -> Optional.empty();
    };
  }

  private Optional<Path> lookUp(Component c, Set<String> origins) {
    // envtest's TEST_ASSET_<NAME>, read into the options with the other settings.
    Path p = options.binaries().get(c.fileName());
    if (p != null) {
      if (!Files.isExecutable(p)) {
        throw new KubeHarnessException(
            c.assetVariable()
                + " points at "
                + p
                + ", which is not an executable file. Fix or unset it.");
      }
      origins.add(c.assetVariable());
      return Optional.of(p);
    }
    Optional<Path> assets = options.assetsDirectory().map(dir -> dir.resolve(c.fileName()));
    if (assets.isPresent() && Files.isExecutable(assets.get())) {
      origins.add("KUBEBUILDER_ASSETS=" + options.assetsDirectory().get());
      return assets;
    }
    Optional<Path> cached = cache.find(c);
    cached.ifPresent(found -> origins.add("cache " + cache.directory()));
    return cached;
  }

  private void provision(Set<Component> needed, Map<Component, Path> found, Set<String> origins) {
    try (AutoCloseable lock = cache.lock(options.progress())) {
      // Another JVM may have finished while this one waited for the lock.
      for (Component c : needed) {
        if (!found.containsKey(c)) {
          cache.find(c).ifPresent(p -> found.put(c, p));
        }
      }
      Set<Component> missing = missing(needed, found);
      if (missing.isEmpty()) {
        origins.add("cache " + cache.directory());
        return;
      }
      boolean downloadable =
          missing.contains(Component.ETCD) || missing.contains(Component.KUBE_APISERVER);
      if (downloadable && !options.offline()) {
        tryDownload(missing, found, origins);
      }
      missing = missing(needed, found);
      if (!missing.isEmpty()) {
        Path staging = Files.createTempDirectory(cache.directory().getParent(), ".build-");
        try {
          Map<Component, Path> built =
              new SourceBuild(
                      goCommand(), options.cacheDirectory().resolve("build"), options.progress())
                  .build(options.kubernetesVersion(), missing, staging);
          built.forEach((c, p) -> found.put(c, cache.install(c, p)));
          origins.add("built from Go modules into " + cache.directory());
        } finally {
          io.github.kubeharness.internal.process.RunDirectory.deleteRecursively(staging);
        }
      }
    } catch (KubeHarnessException e) {
      throw e;
    } catch (Exception e) {
      throw new KubeHarnessException(
          "Provisioning Kubernetes binaries into " + cache.directory() + " failed: " + e, e);
    }
  }

  private void tryDownload(
      Set<Component> missing, Map<Component, Path> found, Set<String> origins) {
    try {
      new ReleaseDownload(options.releaseIndex(), Platform.current(), options.progress())
          .fetchInto(options.kubernetesVersion(), cache);
      for (Component c : missing) {
        cache.find(c).ifPresent(p -> found.put(c, p));
      }
      origins.add("envtest release from " + options.releaseIndex());
    } catch (KubeHarnessException e) {
      options
          .progress()
          .accept(
              "download not possible, building instead: "
                  + e.getMessage().lines().findFirst().orElse(""));
    }
  }

  private String goCommand() {
    return options.goCommand();
  }

  private static Set<Component> missing(Set<Component> needed, Map<Component, Path> found) {
    Set<Component> missing = EnumSet.noneOf(Component.class);
    needed.stream().filter(c -> !found.containsKey(c)).forEach(missing::add);
    return missing;
  }
}
