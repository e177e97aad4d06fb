package io.github.kubeharness.spring;

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
        : new KubeHarnessContextCustomizer(ClusterRequest.of(annotation), testClass.getName());
  }
}
