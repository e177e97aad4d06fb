package io.github.kubeharness;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which control-plane components run: each profile declares its {@link #components()}, and the
 * backends that can run it declare so in {@link Backend#profiles()}.
 */
public enum Profile {
  /** etcd and kube-apiserver only: what controller-runtime's envtest starts. Fastest. */
  MINIMAL(Component.ETCD, Component.KUBE_APISERVER),
  /**
   * etcd, kube-apiserver and kube-controller-manager with the namespace, garbage-collector and
   * service-account controllers: namespace deletion completes and ownerReference garbage collection
   * works, which envtest cannot do. A whole cluster (k3s, kind, existing) runs at least this, and
   * reports it.
   */
  STANDARD(Component.ETCD, Component.KUBE_APISERVER, Component.KUBE_CONTROLLER_MANAGER),
  /**
   * {@link #STANDARD} plus kube-scheduler, the workload controllers (Deployments, ReplicaSets,
   * StatefulSets, DaemonSets, Jobs, CronJobs, Endpoints, ResourceQuota, ...) and KWOK's fake nodes:
   * pods are scheduled and go Running and Ready (Jobs' pods complete) without a container runtime
   * or images; {@link io.github.kubeharness.simulation.Simulation} steers them. Local backend only.
   */
  SIMULATED(
      Component.ETCD,
      Component.KUBE_APISERVER,
      Component.KUBE_CONTROLLER_MANAGER,
      Component.KUBE_SCHEDULER,
      Component.KWOK);

  /** A process a profile runs beside (or as part of) the API server. */
  public enum Component {
    ETCD,
    KUBE_APISERVER,
    KUBE_CONTROLLER_MANAGER,
    KUBE_SCHEDULER,
    KWOK;

    /** The binary's name: {@code kube-apiserver}. */
    public String binaryName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  private final Set<Component> components;

  Profile(Component first, Component... rest) {
    this.components = Collections.unmodifiableSet(EnumSet.of(first, rest));
  }

  /** The components this profile runs, in start order. */
  public Set<Component> components() {
    return components;
  }

  /** Whether this profile runs {@code component}. */
  public boolean runs(Component component) {
    return components.contains(component);
  }

  /** The lower-case name used in settings and on the command line. */
  public String settingValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
