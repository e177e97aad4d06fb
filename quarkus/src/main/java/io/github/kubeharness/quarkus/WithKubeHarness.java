package io.github.kubeharness.quarkus;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @QuarkusTest}'s application against a real Kubernetes API server from kube-harness.
 * Before the application boots, a control plane is started (one per set of options — backend and
 * its own options, profile, version — for the test JVM: every test class of the module uses it,
 * across Quarkus' restarts of the application, and it stops when the JVM exits), the CRDs are
 * installed, the manifests applied, and the application's Kubernetes client configuration points at
 * it (Dev Services for Kubernetes off):
 *
 * <ul>
 *   <li>its {@code KubernetesClient} — and so the Quarkus Operator SDK's operator — talks to the
 *       control plane, as cluster-admin or, with {@link #serviceAccount()}, as its own
 *       ServiceAccount;
 *   <li>a test field {@code @InjectKubeHarness KubeHarness kube} gives the test its namespace (a
 *       new one per test method) and an admin client in it; a failing test leaves the usual report
 *       under {@code target/kube-harness/reports/<class>/<method>/}.
 * </ul>
 *
 * <p>Every attribute left blank takes the kube-harness setting (system property, environment
 * variable, default), as {@code @ControllerTest}'s do. Test classes with different attributes
 * (another {@link #serviceAccount()}, other manifests) restart the application, each start with its
 * own credentials, on the same control plane.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
// Global scope; Quarkus 3.27 still restarts the application for each class with other attributes,
// which the JVM's one control plane makes cheap.
@WithTestResource(value = KubeHarnessTestResource.class, scope = TestResourceScope.GLOBAL)
public @interface WithKubeHarness {

  /** {@code local}, {@code container}, {@code kind}, ...; blank: {@code kubeharness.backend}. */
  String backend() default "";

  /**
   * {@code minimal}, {@code standard} (garbage collection and the workload controllers), {@code
   * simulated}; blank: {@code kubeharness.profile}.
   */
  String profile() default "";

  /** Kubernetes version; blank: {@code kubeharness.kubernetes.version}. */
  String kubernetesVersion() default "";

  /**
   * CRD files, directories or {@code classpath:} resources to install. Empty: the CRDs the Quarkus
   * Operator SDK generated at build time, {@value KubeHarnessTestResource#GENERATED_CRDS}{@code
   * *-v1.yml}.
   */
  String[] crds() default {};

  /**
   * Manifests applied before the application boots (files, directories or {@code classpath:}):
   * typically its RBAC — its namespace, ServiceAccount, ClusterRole and binding.
   */
  String[] manifests() default {};

  /**
   * {@code namespace/name} of a ServiceAccount (from {@link #manifests()}) the application acts as:
   * its client authenticates with that ServiceAccount's token, so it runs under its own RBAC.
   * Blank: the application is cluster-admin.
   */
  String serviceAccount() default "";
}
