package io.github.kubeharness.internal.junit;

import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;

/**
 * One run of a matrix test on one version: its display name, and the callback that prepares the run
 * on that version. It is the invocation's own extension, because only it knows the version; the
 * class's extension leaves matrix tests to it.
 */
final class MatrixInvocation implements TestTemplateInvocationContext {

  private final String displayName;
  private final MatrixVersion version;
  private final BiConsumer<ExtensionContext, MatrixVersion> beforeEach;

  MatrixInvocation(
      String displayName,
      MatrixVersion version,
      BiConsumer<ExtensionContext, MatrixVersion> beforeEach) {
    this.displayName = displayName;
    this.version = version;
    this.beforeEach = beforeEach;
  }

  @Override
  public String getDisplayName(int invocationIndex) {
    return displayName;
  }

  @Override
  public List<Extension> getAdditionalExtensions() {
    return List.of((BeforeEachCallback) context -> beforeEach.accept(context, version));
  }
}
