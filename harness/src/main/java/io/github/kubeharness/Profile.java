package io.github.kubeharness;

import java.util.Locale;

/** Which control-plane components run. */
public enum Profile {
  /** etcd and kube-apiserver only: what controller-runtime's envtest starts. Fastest. */
  MINIMAL,
  /**
   * etcd, kube-apiserver and kube-controller-manager with the namespace, garbage-collector and
   * service-account controllers: namespace deletion completes and ownerReference garbage collection
   * works, which envtest cannot do.
   */
  STANDARD,
  /**
   * {@link #STANDARD} plus kube-scheduler, the workload controllers (Deployments, ReplicaSets,
   * StatefulSets, DaemonSets, Jobs, CronJobs, Endpoints, ResourceQuota, ...) and KWOK's fake nodes:
   * pods are scheduled and go Running and Ready (Jobs' pods complete) without a container runtime
   * or images; {@link Simulation} steers them. Local backend only.
   */
  SIMULATED;

  /**
   * Parses {@code minimal}, {@code standard} or {@code simulated} (any case), naming the setting on
   * failure.
   */
  public static Profile parse(String value, String source) {
    return Settings.parseEnum(value, Profile.class, source);
  }

  /** The lower-case name used in settings and on the command line. */
  public String settingValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
