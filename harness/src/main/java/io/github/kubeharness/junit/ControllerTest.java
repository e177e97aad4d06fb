package io.github.kubeharness.junit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Turns a test class into a controller integration test against a real API server.
 *
 * <pre>{@code
 * @ControllerTest(crds = "target/classes/META-INF/fabric8", reconcilers = GuestbookReconciler.class)
 * class GuestbookReconcilerTest {
 *   KubernetesClient client;          // namespaced to this test's namespace
 *
 *   @Test
 *   void createsADeployment() {
 *     client.resource(guestbook("demo")).create();
 *     eventually(client.apps().deployments().withName("demo")).exists();
 *   }
 * }
 * }</pre>
 *
 * <p>Before each test: the control plane is running (one per JVM and configuration, shared by every
 * class that asks for the same one), the CRDs are installed and served, a fresh namespace exists,
 * the controllers run and their informers have synced. After it: the controllers stop and the
 * namespace is deleted; when the test failed, a report of everything in the namespace is written to
 * {@code target/kube-harness/reports/<class>/<method>/} and its path appended to the failure.
 *
 * <p>Settings precedence, highest first: an attribute set here, the system property, the
 * environment variable, the default. Blank attributes mean "not set".
 *
 * <p>Injected into non-static fields (when null) and into test and lifecycle method parameters, by
 * type: {@link io.fabric8.kubernetes.client.KubernetesClient} (namespaced to the test's namespace),
 * {@code @TestNamespace String}, {@link io.github.kubeharness.ControlPlane}, {@link
 * io.github.kubeharness.assertions.KubeAssertions}, {@link io.github.kubeharness.webhooks.Webhooks}
 * (with {@link #webhookHandlers()}), JOSDK's {@code Operator}, and each running reconciler or
 * controller by its own class.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ControllerTestExtension.class)
public @interface ControllerTest {

  /**
   * Where the API server comes from: {@code auto}, {@code local}, {@code container}, {@code k3s},
   * {@code kind} or {@code existing}. Default: {@code kubeharness.backend} / {@code
   * KUBE_HARNESS_BACKEND}, else {@code auto} (see {@link io.github.kubeharness.Backend#AUTO}).
   */
  String backend() default "";

  /**
   * {@code minimal} (etcd + kube-apiserver), {@code standard} (+ kube-controller-manager, for
   * namespace deletion and garbage collection) or {@code simulated} (+ kube-scheduler, the workload
   * controllers and KWOK's fake nodes: pods go Running and Ready, steered by an injected {@link
   * io.github.kubeharness.simulation.Simulation}). Default: {@code kubeharness.profile} / {@code
   * KUBE_HARNESS_PROFILE}, else the backend's {@link
   * io.github.kubeharness.Backend#defaultProfile()} ({@code minimal}; {@code standard} on k3s, kind
   * and existing). A profile the backend does not run is refused before anything starts ({@link
   * io.github.kubeharness.Backend#profiles()}).
   */
  String profile() default "";

  /** Kubernetes version, e.g. {@code 1.37.2}. Default: {@code kubeharness.kubernetes.version}. */
  String kubernetesVersion() default "";

  /**
   * A version matrix: every {@link MatrixTest} of the class runs once per version, each on a
   * control plane of its own (shared, like any, by the classes that ask for the same), displayed as
   * {@code createsADeployment() [k8s 1.36.3]}. A minor ({@code "1.36"}) means its newest patch that
   * can be had (from the Go module proxy's list, or the cache); a full version is taken as is. A
   * version that cannot be had fails its own tests with the reason; the others run. The setting
   * {@code kubeharness.kubernetes.versions} replaces this list. The class's tests must be {@link
   * MatrixTest}s. Not with {@link #kubernetesVersion()}, nor on the existing backend.
   */
  String[] kubernetesVersions() default {};

  /**
   * CRDs to install: YAML files, directories of them (every {@code .yaml}/{@code .yml} that holds a
   * CustomResourceDefinition), or {@code classpath:} resources. Relative paths are resolved against
   * the working directory (the module directory under Maven).
   */
  String[] crds() default {};

  /**
   * Custom resource classes whose CRDs the fabric8 CRD generator wrote to {@code
   * META-INF/fabric8/<plural>.<group>-v1.yml} on the classpath.
   */
  Class<? extends HasMetadata>[] crdClasses() default {};

  /**
   * JOSDK reconcilers to run in-process, each in an {@code Operator} that watches only the test's
   * namespace. A reconciler needs a public no-argument constructor or one taking a {@code
   * KubernetesClient}.
   */
  Class<?>[] reconcilers() default {};

  /**
   * Other controllers (plain fabric8 informers, ...) to run in-process, each made by a {@link
   * ControllerFactory} with a public no-argument constructor.
   */
  Class<? extends ControllerFactory>[] controllers() default {};

  /**
   * Several named clusters in one test ({@code {"hub", "edge-1", "edge-2"}}), for controllers that
   * span clusters: each its own API server with the CRDs installed and a namespace per test (of the
   * same name in each); the first is the default cluster, which un-annotated injections, {@link
   * #reconcilers()} and {@link #controllers()} use. Ask for the others with {@link Cluster}
   * ({@code @Cluster("edge-1") KubernetesClient}), place controllers on them with {@link
   * ClusterControllers}, reach all of them through an injected {@link
   * io.github.kubeharness.Clusters}. On the local backend every further cluster is one more
   * kube-apiserver on the first cluster's etcd, under a key prefix of its own (an etcd of its own
   * with {@code kubeharness.clusters.etcd=own}); the container, k3s and kind backends start a whole
   * control plane per cluster; only {@code existing} refuses it. Names are lower-case DNS labels.
   * Default: one unnamed cluster. See docs/multi-cluster.md.
   */
  String[] clusters() default {};

  /** One namespace per test method (default) or one per test class. */
  NamespaceMode namespaceMode() default NamespaceMode.PER_TEST;

  /** Keep a failed test's namespace (and its objects) instead of deleting it. Default false. */
  boolean keepNamespaceOnFailure() default false;

  /**
   * RBAC manifests (files or directories, e.g. the operator's {@code config/rbac}) to run the
   * controllers under, instead of as cluster admin. The ServiceAccount they run as is created in
   * the test namespace, the Roles, ClusterRoles and bindings are applied as written (only the
   * ServiceAccount subjects' namespace becomes the test namespace), and the controllers get a token
   * for it. A missing verb then fails the test, and the report names the denied request; a binding
   * whose subject names another ServiceAccount fails the class, as it would leave the deployed
   * operator without permissions.
   */
  String[] rbac() default {};

  /**
   * The ServiceAccount the controllers run as with {@link #rbac()}. Default: the one the rbac
   * manifests declare ({@code service_account.yaml}), else the one their bindings name. When set,
   * it must be the one the manifests declare and bind.
   */
  String serviceAccount() default "";

  /**
   * Webhook manifests (files or directories, e.g. kubebuilder's {@code config/webhook} and {@code
   * config/crd/patches}): Mutating- and ValidatingWebhookConfigurations, and CRDs (or patches of
   * them) whose {@code spec.conversion.strategy} is {@code Webhook}. kube-harness serves them in
   * the test JVM on 127.0.0.1 over TLS, points each {@code clientConfig} at that server with its
   * CA, applies the configurations per test namespace (renamed, their namespace selector narrowed
   * to it) and starts the test once the API server calls them. Needs {@link #webhookHandlers()}.
   */
  String[] webhooks() default {};

  /**
   * The handlers of {@link #webhooks()}: classes with a public no-argument constructor (or one
   * taking a {@code KubernetesClient}) that register a handler for every path the manifests name.
   * An injected {@link io.github.kubeharness.webhooks.Webhooks} tells what the API server called; a
   * failed test's report gains {@code webhooks.txt}.
   */
  Class<? extends io.github.kubeharness.webhooks.WebhookHandlers>[] webhookHandlers() default {};
}
