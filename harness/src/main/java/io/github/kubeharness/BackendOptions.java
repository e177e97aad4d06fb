package io.github.kubeharness;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one backend alone is set with: one small immutable record per {@link Backend}, so that an
 * option of one backend (kind's node image, the container backend's images) cannot be set on
 * another. Give one to {@link ControlPlaneOptions.Builder#withBackend(BackendOptions)}; {@link
 * ControlPlaneOptions.Builder#withBackend(Backend)} takes the backend's record with its settings
 * applied. What every backend shares (profile, version, timeouts, {@code reuse}) is on {@link
 * ControlPlaneOptions}.
 *
 * <p>A value: it reads nothing. The factories ({@link #local()}, {@link #kind()}, ...) give the
 * documented defaults; a record given in code is taken as given, its unset images filled from their
 * settings where a control plane is made. Where the builder names only the backend ({@link
 * ControlPlaneOptions.Builder#withBackend(Backend)}), the backend's settings fill its record. The
 * {@code withX} methods return a copy with one option changed.
 */
public sealed interface BackendOptions
    permits BackendOptions.Auto,
        BackendOptions.Local,
        BackendOptions.Container,
        BackendOptions.K3s,
        BackendOptions.Kind,
        BackendOptions.Existing {

  /** The backend these options are for. */
  Backend backend();

  /**
   * Whether this backend, so set, offers {@code feature}: the container backend has JVM webhooks on
   * the host's network only ({@link Backend#supports}).
   */
  default boolean supports(Backend.Feature feature) {
    return backend().supports(feature, NetworkMode.BRIDGE);
  }

  /**
   * Refuses a feature this backend, so set, does not offer, before anything starts.
   *
   * @param where the culprit, as the message names it: {@code @ControllerTest on MyTest}
   * @throws KubeHarnessException naming the backends that offer it
   */
  default void require(Backend.Feature feature, String where) {
    if (!supports(feature)) {
      throw backend().unsupported(feature, null, where);
    }
  }

  /** The options of {@code backend}, each its documented default. */
  static BackendOptions of(Backend backend) {
    return switch (backend) {
      case AUTO -> auto();
      case LOCAL -> local();
      case CONTAINER -> container();
      case K3S -> k3s();
      case KIND -> kind();
      case EXISTING -> existing();
    };
  }

  /** The {@code local} backend's options: 1 simulated node, pods start in 0.3 s, kept 10 min. */
  static Local local() {
    return new Local(1, Duration.ofMillis(300), Duration.ofMinutes(10), "standard");
  }

  /** The {@code container} backend's options: bridge networking, images by the version. */
  static Container container() {
    return new Container(NetworkMode.BRIDGE, Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** The {@code k3s} backend's options: bridge networking, the image by the version. */
  static K3s k3s() {
    return new K3s(NetworkMode.BRIDGE, Optional.empty());
  }

  /** The {@code kind} backend's options: the node image by the version. */
  static Kind kind() {
    return new Kind(Optional.empty());
  }

  /** The {@code existing} backend's options (it has none: it uses the kubeconfig as it is). */
  static Existing existing() {
    return new Existing();
  }

  /** {@code auto}'s options: those of the backends it may choose, each its defaults. */
  static Auto auto() {
    return new Auto(local(), container(), false);
  }

  /**
   * The {@code auto} backend's options: it chooses {@code existing}, {@code local} or {@code
   * container} at start ({@link Backend#AUTO}) and runs the chosen one with these.
   *
   * @param local what a {@code local} choice runs with
   * @param container what a {@code container} choice runs with
   * @param existingCluster choose {@code existing} (envtest's {@code USE_EXISTING_CLUSTER=true})
   */
  record Auto(Local local, Container container, boolean existingCluster) implements BackendOptions {
    public Auto {
      Objects.requireNonNull(local, "local");
      Objects.requireNonNull(container, "container");
    }

    /** {@code auto}'s options that choose by what the machine has, not {@code existing}. */
    public Auto(Local local, Container container) {
      this(local, container, false);
    }

    @Override
    public Backend backend() {
      return Backend.AUTO;
    }
  }

  /**
   * The {@code local} backend's options; {@link #local()} gives the defaults.
   *
   * @param simulatedNodes fake nodes of the {@code simulated} profile; default {@link
   *     Settings#SIMULATED_NODES}, 1
   * @param podStartDelay scheduled to Running and Ready in the {@code simulated} profile; default
   *     {@link Settings#SIMULATED_POD_START_SECONDS}, 0.3 s
   * @param reuseIdleTimeout how long a kept control plane ({@link ControlPlaneOptions#reuse()})
   *     waits with no JVM attached before it stops; default {@link Settings#REUSE_IDLE_MINUTES}, 10
   *     minutes
   */
  record Local(
      int simulatedNodes,
      Duration podStartDelay,
      Duration reuseIdleTimeout,
      String simulatedStorageClass)
      implements BackendOptions {
    public Local {
      if (simulatedNodes < 1) {
        throw new IllegalArgumentException(
            "simulated nodes must be at least 1, was " + simulatedNodes);
      }
      if (podStartDelay.isNegative()) {
        throw new IllegalArgumentException(
            "pod start delay must not be negative, was " + podStartDelay);
      }
      if (reuseIdleTimeout.isNegative() || reuseIdleTimeout.isZero()) {
        throw new IllegalArgumentException(
            "reuse idle timeout must be positive, was " + reuseIdleTimeout);
      }
    }

    @Override
    public Backend backend() {
      return Backend.LOCAL;
    }

    /** These options with {@code nodes} fake nodes. */
    public Local withSimulatedNodes(int nodes) {
      return new Local(nodes, podStartDelay, reuseIdleTimeout, simulatedStorageClass);
    }

    /** These options with pods Running and Ready {@code delay} after scheduling. */
    public Local withPodStartDelay(Duration delay) {
      return new Local(simulatedNodes, delay, reuseIdleTimeout, simulatedStorageClass);
    }

    /** These options with a kept control plane stopping after {@code idle} unused. */
    public Local withReuseIdleTimeout(Duration idle) {
      return new Local(simulatedNodes, podStartDelay, idle, simulatedStorageClass);
    }

    /** These options with {@code name} as the simulated profile's default StorageClass. */
    public Local withSimulatedStorageClass(String name) {
      return new Local(
          simulatedNodes, podStartDelay, reuseIdleTimeout, java.util.Objects.requireNonNull(name));
    }

    /** The simulated profile's default StorageClass; empty for {@code none}. */
    public Optional<String> defaultStorageClass() {
      return "none".equals(simulatedStorageClass)
          ? Optional.empty()
          : Optional.of(simulatedStorageClass);
    }
  }

  /**
   * The {@code container} backend's options.
   *
   * @param network container networking; default {@link Settings#NETWORK}, bridge
   * @param etcdImage default {@link Settings#CONTAINER_ETCD_IMAGE}, else {@code
   *     registry.k8s.io/etcd} at the etcd version of the Kubernetes version
   * @param apiServerImage default {@link Settings#CONTAINER_APISERVER_IMAGE}, else {@code
   *     registry.k8s.io/kube-apiserver:v<version>}
   * @param controllerManagerImage default {@link Settings#CONTAINER_CONTROLLER_MANAGER_IMAGE}, else
   *     {@code registry.k8s.io/kube-controller-manager:v<version>}
   */
  record Container(
      NetworkMode network,
      Optional<String> etcdImage,
      Optional<String> apiServerImage,
      Optional<String> controllerManagerImage)
      implements BackendOptions {
    public Container {
      Objects.requireNonNull(network, "network");
      Objects.requireNonNull(etcdImage, "etcdImage");
      Objects.requireNonNull(apiServerImage, "apiServerImage");
      Objects.requireNonNull(controllerManagerImage, "controllerManagerImage");
    }

    @Override
    public Backend backend() {
      return Backend.CONTAINER;
    }

    @Override
    public boolean supports(Backend.Feature feature) {
      return Backend.CONTAINER.supports(feature, network);
    }

    @Override
    public void require(Backend.Feature feature, String where) {
      if (!supports(feature)) {
        throw Backend.CONTAINER.unsupported(feature, network, where);
      }
    }

    /** These options on {@code mode} networking. */
    public Container withNetwork(NetworkMode mode) {
      return new Container(mode, etcdImage, apiServerImage, controllerManagerImage);
    }

    /** These options with etcd from {@code image}. */
    public Container withEtcdImage(String image) {
      return new Container(network, Optional.of(image), apiServerImage, controllerManagerImage);
    }

    /** These options with kube-apiserver from {@code image}. */
    public Container withApiServerImage(String image) {
      return new Container(network, etcdImage, Optional.of(image), controllerManagerImage);
    }

    /** These options with kube-controller-manager from {@code image}. */
    public Container withControllerManagerImage(String image) {
      return new Container(network, etcdImage, apiServerImage, Optional.of(image));
    }
  }

  /**
   * The {@code k3s} backend's options.
   *
   * @param network container networking; default {@link Settings#NETWORK}, bridge
   * @param image default {@link Settings#K3S_IMAGE}, else {@code rancher/k3s:v<version>-k3s1}
   */
  record K3s(NetworkMode network, Optional<String> image) implements BackendOptions {
    public K3s {
      Objects.requireNonNull(network, "network");
      Objects.requireNonNull(image, "image");
    }

    @Override
    public Backend backend() {
      return Backend.K3S;
    }

    /** These options on {@code mode} networking. */
    public K3s withNetwork(NetworkMode mode) {
      return new K3s(mode, image);
    }

    /** These options with k3s from {@code image}. */
    public K3s withImage(String image) {
      return new K3s(network, Optional.of(image));
    }
  }

  /**
   * The {@code kind} backend's options.
   *
   * @param image the node image; default {@link Settings#KIND_IMAGE}, else {@code
   *     kube-harness/kind-node:v<version>} where it is in the local Docker ({@code make
   *     kind-image}), else {@code kindest/node:v<version>}
   */
  record Kind(Optional<String> image) implements BackendOptions {
    public Kind {
      Objects.requireNonNull(image, "image");
    }

    @Override
    public Backend backend() {
      return Backend.KIND;
    }

    /** These options with nodes from {@code image}. */
    public Kind withImage(String image) {
      return new Kind(Optional.of(image));
    }
  }

  /**
   * The {@code existing} backend's options: none, it uses the cluster of the current kubeconfig
   * ({@code KUBECONFIG}, else {@code ~/.kube/config}) as it is.
   */
  record Existing() implements BackendOptions {
    @Override
    public Backend backend() {
      return Backend.EXISTING;
    }
  }
}
