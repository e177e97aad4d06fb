package io.github.kubeharness.spring;

import io.github.kubeharness.integration.ClusterRequest;
import java.util.List;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Finds {@link EnableKubeHarness} on a test class (or its enclosing or super classes) and adds the
 * customizer that points the context at a control plane. Registered in {@code
 * META-INF/spring.factories}, so Spring's TestContext framework picks it up by itself.
 */
public class KubeHarnessContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public ContextCustomizer createContextCustomizer(
      Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
    EnableKubeHarness annotation =
        TestContextAnnotationUtils.findMergedAnnotation(testClass, EnableKubeHarness.class);
    return annotation == null
        ? null
        : new KubeHarnessContextCustomizer(request(annotation), testClass.getName());
  }

  /** What the annotation asks for: part of the context's key, so equal requests share one. */
  static ClusterRequest request(EnableKubeHarness annotation) {
    return new ClusterRequest(
        annotation.backend(),
        annotation.profile(),
        annotation.kubernetesVersion(),
        List.of(annotation.crds()),
        List.of(annotation.crdClasses()),
        List.of(annotation.manifests()),
        annotation.serviceAccount());
  }
}
