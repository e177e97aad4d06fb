package io.github.kubeharness;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a control plane comes from, and what each source can do: the {@link #profiles()} it runs
 * and the {@link Feature}s it offers. A combination it cannot do is refused once, before anything
 * starts ({@link #requireProfile}, {@link #require}), with one message naming the backends that
 * can.
 */
public enum Backend {
  /**
   * Chosen at start: {@code existing} when envtest's {@code USE_EXISTING_CLUSTER=true}; {@code
   * local} for the simulated profile (it runs nowhere else), or when the binaries are already
   * provisioned; {@code container} when Docker is reachable and Testcontainers is on the classpath;
   * else {@code local}, provisioning the binaries. Its choice is checked as a backend named
   * outright would be.
   */
  AUTO(EnumSet.allOf(Profile.class), EnumSet.allOf(Feature.class), "decides at start"),
  /** etcd, kube-apiserver (and kube-controller-manager) as child processes. */
  LOCAL(
      EnumSet.allOf(Profile.class),
      EnumSet.of(
          Feature.FAULTS,
          Feature.JVM_WEBHOOKS,
          Feature.REUSE,
          Feature.VERSION_MATRIX,
          Feature.CLUSTERS),
      "runs each component itself"),
  /** The same components as Testcontainers ({@code registry.k8s.io} images). */
  CONTAINER(
      EnumSet.of(Profile.MINIMAL, Profile.STANDARD),
      EnumSet.of(Feature.VERSION_MATRIX, Feature.CLUSTERS),
      "runs no kube-scheduler or KWOK"),
  /** A k3s cluster in a Testcontainer ({@code rancher/k3s}): pods really run. */
  K3S(
      EnumSet.of(Profile.STANDARD),
      EnumSet.of(Feature.VERSION_MATRIX, Feature.CLUSTERS),
      "is a whole cluster, every controller running"),
  /** The cluster of the current kubeconfig (kind, or any cluster). */
  EXISTING(
      EnumSet.of(Profile.STANDARD),
      EnumSet.noneOf(Feature.class),
      "is a whole cluster kube-harness neither starts nor changes"),
  /**
   * A kind cluster created (and deleted) by the harness: a real node whose kubelet runs pods, from
   * kube-harness's node image or upstream's {@code kindest/node}.
   */
  KIND(
      EnumSet.of(Profile.STANDARD),
      EnumSet.of(Feature.LOAD_IMAGE, Feature.REUSE, Feature.VERSION_MATRIX, Feature.CLUSTERS),
      "is a whole cluster, every controller running");

  /**
   * What a test may need beyond a running API server. Declared per backend ({@link #supports});
   * {@link #require} refuses a backend that lacks one, naming those that have it.
   */
  public enum Feature {
    /**
     * {@link ControlPlane#faults()}: the fault proxy in front of an API server kube-harness runs.
     */
    FAULTS("faults (a Faults field or parameter, ControlPlane.faults())"),
    /**
     * Webhooks served by the test JVM ({@code @ControllerTest(webhooks, webhookHandlers)}): the API
     * server must reach this machine's 127.0.0.1, so the container backend has them on the host's
     * network only.
     */
    JVM_WEBHOOKS("webhooks served by the test JVM (webhooks, webhookHandlers)"),
    /** {@link ControlPlane#loadImage}: a kubelet that runs pods from local Docker images. */
    LOAD_IMAGE("loadImage (a kubelet that runs pods from local images)"),
    /** {@link ControlPlaneOptions#reuse()}: a control plane kept for the next JVM. */
    REUSE("reuse (kubeharness.reuse: a control plane kept for the next JVM)"),
    /** {@code kubernetesVersions}: one control plane per Kubernetes version. */
    VERSION_MATRIX(
        "a Kubernetes version matrix (kubernetesVersions, kubeharness.kubernetes.versions)"),
    /**
     * {@code @ControllerTest(clusters)}: several named clusters in one test, each an apiserver of
     * its own: on the local backend on one etcd with a key prefix per cluster, elsewhere a whole
     * control plane per cluster.
     */
    CLUSTERS("several clusters in one test (clusters)");

    private final String description;

    Feature(String description) {
      this.description = description;
    }

    /** What the feature is, as messages and the docs name it. */
    public String description() {
      return description;
    }

    /** Its description without the parenthesis: {@code faults}, {@code loadImage}. */
    public String label() {
      return description.split(" \\(")[0];
    }
  }

  private final Set<Profile> profiles;
  private final Set<Feature> features;
  private final String why;

  Backend(Set<Profile> profiles, Set<Feature> features, String why) {
    this.profiles = Collections.unmodifiableSet(profiles);
    this.features = Collections.unmodifiableSet(features);
    this.why = why;
  }

  /** The lower-case name used in settings and messages. */
  public String settingValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The profiles this backend runs; a whole cluster (k3s, kind, existing) runs {@code standard}.
   */
  public Set<Profile> profiles() {
    return profiles;
  }

  /**
   * The profile when none is asked: {@code minimal} where it can run, else the one profile this
   * backend runs ({@code standard} on k3s, kind and existing).
   */
  public Profile defaultProfile() {
    return profiles.contains(Profile.MINIMAL) ? Profile.MINIMAL : profiles.iterator().next();
  }

  /**
   * Whether this backend offers {@code feature} on {@code network} (only {@link
   * Feature#JVM_WEBHOOKS} depends on it: the container backend has them on the host's network).
   */
  public boolean supports(Feature feature, NetworkMode network) {
    if (feature == Feature.JVM_WEBHOOKS && this == CONTAINER) {
      return network == NetworkMode.HOST;
    }
    return features.contains(feature);
  }

  /**
   * Refuses a profile this backend does not run, before anything starts.
   *
   * @param where the culprit, as the message names it: {@code @ControllerTest on MyTest}
   * @throws KubeHarnessException naming the backends that run {@code profile} and the profiles this
   *     one runs
   */
  public void requireProfile(Profile profile, String where) {
    if (profiles.contains(profile)) {
      return;
    }
    throw new KubeHarnessException(
        where
            + ": the "
            + profile.settingValue()
            + " profile cannot run on the "
            + settingValue()
            + " backend, which "
            + why
            + " and runs "
            + names(profiles.stream().map(Profile::settingValue).toList())
            + " only. Use backend "
            + names(backendsRunning(profile))
            + " for "
            + profile.settingValue()
            + ", or profile "
            + names(profiles.stream().map(Profile::settingValue).toList())
            + " on "
            + settingValue()
            + " (@ControllerTest(backend = ..., profile = ...), -Dkubeharness.backend,"
            + " -Dkubeharness.profile; in code the builder's withBackend(...) and"
            + " withProfile(...), which win over both).");
  }

  /**
   * Refuses a feature this backend does not offer, before anything starts.
   *
   * @throws KubeHarnessException naming the backends that offer it
   */
  public void require(Feature feature, NetworkMode network, String where) {
    if (!supports(feature, network)) {
      throw unsupported(feature, network, where);
    }
  }

  /** The one message of {@link #require}: what is missing, and the backends that have it. */
  public KubeHarnessException unsupported(Feature feature, NetworkMode network, String where) {
    return new KubeHarnessException(
        where
            + ": the "
            + settingValue()
            + (this == CONTAINER && network != null
                ? " backend on network " + network.name().toLowerCase(Locale.ROOT)
                : " backend")
            + " cannot give "
            + feature.description()
            + ". Backends that can: "
            + names(backendsSupporting(feature))
            + ". Use one of them (@ControllerTest(backend = \""
            + first(feature)
            + "\") or -Dkubeharness.backend="
            + first(feature)
            + "), or leave "
            + feature.label()
            + " out of this test.");
  }

  /** The backends (not auto) that run {@code profile}. */
  static List<String> backendsRunning(Profile profile) {
    return Arrays.stream(values())
        .filter(b -> b != AUTO && b.profiles.contains(profile))
        .map(Backend::settingValue)
        .toList();
  }

  /** The backends (not auto) that offer {@code feature}, on some network. */
  static List<String> backendsSupporting(Feature feature) {
    return Arrays.stream(values())
        .filter(b -> b != AUTO)
        .filter(
            b -> b.supports(feature, NetworkMode.HOST) || b.supports(feature, NetworkMode.BRIDGE))
        .map(
            b ->
                b.supports(feature, NetworkMode.BRIDGE)
                    ? b.settingValue()
                    : b.settingValue() + " with network host")
        .toList();
  }

  private static String first(Feature feature) {
    return backendsSupporting(feature).get(0).split(" ")[0];
  }

  private static String names(List<String> names) {
    return names.stream().collect(Collectors.joining(" or "));
  }
}
