package io.github.kubeharness.internal.junit;

import java.util.List;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;

/**
 * One run of a test template (a version of a matrix test, a seed of a race test): its display name,
 * and the callback that prepares the run on what only it knows (its {@link Invocation}). It is the
 * run's own extension; the class's extension leaves template tests to it.
 */
record TemplateRun(String displayName, BeforeEachCallback prepare)
    implements TestTemplateInvocationContext {

  @Override
  public String getDisplayName(int invocationIndex) {
    return displayName;
  }

  @Override
  public List<Extension> getAdditionalExtensions() {
    return List.of(prepare);
  }
}
