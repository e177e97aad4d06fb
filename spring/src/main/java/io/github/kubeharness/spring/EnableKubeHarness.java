package io.github.kubeharness.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring test's application context against a real Kubernetes API server from kube-harness.
 * Before the context refreshes, the control plane is started (once per JVM for each set of options
 * — backend and its own options, profile, version — whatever number of contexts Spring caches, and
 * shared with the {@code @ControllerTest} classes of the JVM), the CRDs are installed and the
 * application is pointed at it:
 *
 * <ul>
 *   <li>a {@code KubernetesClient} the application builds itself with {@code new
 *       KubernetesClientBuilder().build()} connects to it (the system property {@code kubeconfig}
 *       names a kubeconfig for it while the context starts);
 *   <li>an application without a {@code KubernetesClient} bean gets one;
 *   <li>the property {@code kubeharness.kubeconfig} names that kubeconfig file;
 *   <li>the bean {@link KubeHarness} gives the test its namespace (a new one per test method) and
 *       an admin client in it; a failing test leaves the usual report under {@code
 *       target/kube-harness/reports/<class>/<method>/}.
 * </ul>
 *
 * <p>Every attribute left blank takes the kube-harness setting (system property, environment
 * variable, default), as {@code @ControllerTest}'s do. Contexts whose attributes differ are cached
 * apart by Spring, and share a control plane when their control plane options agree.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EnableKubeHarness {

  /** {@code local}, {@code container}, {@code kind}, ...; blank: {@code kubeharness.backend}. */
  String backend() default "";

  /**
   * {@code minimal}, {@code standard} (garbage collection and the workload controllers), {@code
   * simulated}; blank: {@code kubeharness.profile}.
   */
  String profile() default "";

  /** Kubernetes version; blank: {@code kubeharness.kubernetes.version}. */
  String kubernetesVersion() default "";

  /** CRD files, directories or {@code classpath:} resources to install. */
  String[] crds() default {};

  /** Custom resource classes whose CRDs are generated and installed. */
  Class<?>[] crdClasses() default {};

  /**
   * Manifests applied before the context starts (files, directories or {@code classpath:}):
   * typically the application's RBAC — its namespace, ServiceAccount, ClusterRole and binding.
   */
  String[] manifests() default {};

  /**
   * {@code namespace/name} of a ServiceAccount (from {@link #manifests()}) the application acts as:
   * its kubeconfig carries that ServiceAccount's token, so the application runs under its own RBAC.
   * Blank: the application is cluster-admin.
   */
  String serviceAccount() default "";
}
