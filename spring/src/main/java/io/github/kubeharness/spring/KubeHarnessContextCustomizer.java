package io.github.kubeharness.spring;

import io.github.kubeharness.integration.ClusterRequest;
import io.github.kubeharness.integration.PreparedCluster;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Points one application context at a control plane before it refreshes (see {@link
 * EnableKubeHarness}). Equal for equal requests, so that Spring's context cache keeps one context
 * per configuration; the test class it was made for only names errors.
 */
final class KubeHarnessContextCustomizer implements ContextCustomizer {

  /** The fabric8 system property its auto-configuration reads the kubeconfig file from. */
  static final String FABRIC8_KUBECONFIG = "kubeconfig";

  /** The Spring property naming the kubeconfig the application is given. */
  static final String KUBECONFIG_PROPERTY = "kubeharness.kubeconfig";

  private final ClusterRequest request;
  private final String testClass;

  KubeHarnessContextCustomizer(ClusterRequest request, String testClass) {
    this.request = request;
    this.testClass = testClass;
  }

  @Override
  public void customizeContext(
      ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
    PreparedCluster cluster =
        PreparedCluster.prepare(request, "@EnableKubeHarness on " + testClass);
    Path kubeconfig = cluster.applicationKubeconfigFile();
    // Read by fabric8 when the application builds its own client while the context starts.
    System.setProperty(FABRIC8_KUBECONFIG, kubeconfig.toString());
    context
        .getEnvironment()
        .getPropertySources()
        .addFirst(
            new MapPropertySource(
                "kube-harness", Map.of(KUBECONFIG_PROPERTY, kubeconfig.toString())));
    context
        .getBeanFactory()
        .registerSingleton("kubeHarness", new KubeHarness(cluster.controlPlane()));
    if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry) {
      // A bean, not a post-processor added to the context: those run before the application's
      // configuration classes are read, and could not see whether it defines a client itself.
      registry.registerBeanDefinition(
          "kubeHarnessDefaultClient",
          new RootBeanDefinition(
              DefaultClientRegistrar.class, () -> new DefaultClientRegistrar(kubeconfig)));
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof KubeHarnessContextCustomizer that && request.equals(that.request);
  }

  @Override
  public int hashCode() {
    return Objects.hash(request);
  }
}
