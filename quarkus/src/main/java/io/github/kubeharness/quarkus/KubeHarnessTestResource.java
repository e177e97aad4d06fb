package io.github.kubeharness.quarkus;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.integration.ClusterRequest;
import io.github.kubeharness.integration.PreparedCluster;
import io.quarkus.test.common.QuarkusTestResourceConfigurableLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Quarkus test resource behind {@link WithKubeHarness}: starts the control plane, installs the
 * CRDs, applies the manifests and returns the application's {@code quarkus.kubernetes-client.*}
 * configuration, all before the application boots. Usable without the annotation too:
 * {@code @WithTestResource(value = KubeHarnessTestResource.class, initArgs = @ResourceArg(name =
 * "profile", value = "standard"))}, with the annotation's attribute names as keys.
 */
public class KubeHarnessTestResource
    implements QuarkusTestResourceConfigurableLifecycleManager<WithKubeHarness> {

  /** Where the Quarkus Operator SDK writes the CRDs it generates, relative to the module. */
  public static final String GENERATED_CRDS = "target/kubernetes/";

  /** The configuration property naming a kubeconfig file for the control plane. */
  public static final String KUBECONFIG_PROPERTY = "kubeharness.kubeconfig";

  private ClusterRequest request = ClusterRequests.of(Map.of());
  private ControlPlane controlPlane;
  private KubernetesClient admin;

  @Override
  public void init(WithKubeHarness annotation) {
    request = ClusterRequests.of(annotation);
  }

  @Override
  public void init(Map<String, String> initArgs) {
    if (!initArgs.isEmpty()) {
      request = ClusterRequests.of(initArgs);
    }
  }

  @Override
  public Map<String, String> start() {
    String where = "@WithKubeHarness";
    PreparedCluster cluster = PreparedCluster.prepare(request.withCrds(crds(where)), where);
    controlPlane = cluster.controlPlane();
    Map<String, String> properties =
        new LinkedHashMap<>(
            ClientProperties.of(
                cluster.applicationKubeconfig(),
                cluster.applicationKubeconfigFile(),
                cluster::privateFile));
    properties.put(KUBECONFIG_PROPERTY, controlPlane.kubeconfigFile().toString());
    admin = controlPlane.newClient();
    System.err.println(
        "[kube-harness] @WithKubeHarness: the application's client points at "
            + controlPlane.apiServerUrl()
            + " as "
            + cluster.identity());
    return properties;
  }

  /** The CRDs asked for, or the ones QOSDK generated; a clear error when there are none. */
  private List<String> crds(String where) {
    if (!request.crds().isEmpty()) {
      return request.crds();
    }
    Path generated = Path.of(GENERATED_CRDS);
    if (!Files.isDirectory(generated)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(generated)) {
      // QOSDK names them <plural>.<group>-v1.yml; kubernetes.yml beside them is the deployment.
      return files
          .filter(file -> file.getFileName().toString().endsWith("-v1.yml"))
          .map(Path::toString)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(where + ": cannot list " + generated.toAbsolutePath(), e);
    }
  }

  @Override
  public void inject(TestInjector testInjector) {
    testInjector.injectIntoFields(
        new KubeHarness(controlPlane, admin),
        new TestInjector.AnnotatedAndMatchesType(InjectKubeHarness.class, KubeHarness.class));
  }

  /**
   * Closes the test's client; the control plane runs on until the JVM exits, for the next test
   * class: Quarkus restarts the application for it, and it shares the control plane.
   */
  @Override
  public void stop() {
    if (admin != null) {
      admin.close();
    }
  }
}
