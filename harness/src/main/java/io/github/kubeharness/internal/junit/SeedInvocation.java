package io.github.kubeharness.internal.junit;

import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;

/**
 * One run of a race test under one seed: its display name, and the callback that prepares the run
 * with that seed. Like {@link MatrixInvocation}, it prepares the run itself: only it knows the
 * seed.
 */
final class SeedInvocation implements TestTemplateInvocationContext {

  private final long seed;
  private final BiConsumer<ExtensionContext, Long> beforeEach;

  SeedInvocation(long seed, BiConsumer<ExtensionContext, Long> beforeEach) {
    this.seed = seed;
    this.beforeEach = beforeEach;
  }

  @Override
  public String getDisplayName(int invocationIndex) {
    return "[seed " + seed + "]";
  }

  @Override
  public List<Extension> getAdditionalExtensions() {
    return List.of((BeforeEachCallback) context -> beforeEach.accept(context, seed));
  }
}
