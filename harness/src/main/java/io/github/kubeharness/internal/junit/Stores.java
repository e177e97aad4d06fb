package io.github.kubeharness.internal.junit;

import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * Where the lifecycle keeps its state, all in JUnit's stores under one namespace: the root's (each
 * shared cluster), a class's (its configuration, injector, clusters), a test's (its {@link
 * Invocation} and its scope, or the per-class scope it runs in).
 */
final class Stores {

  private static final Namespace NAMESPACE = Namespace.create("io.github.kubeharness");

  private Stores() {}

  /** The store of {@code context} itself. */
  static ExtensionContext.Store of(ExtensionContext context) {
    return context.getStore(NAMESPACE);
  }

  /** The store of the JVM's run: what outlives every class. */
  static ExtensionContext.Store root(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE);
  }

  /** The store of the test class {@code context} is in (its own for a class's context). */
  static ExtensionContext.Store ofClass(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c.getStore(NAMESPACE);
  }

  /** The test's run, once it is prepared. */
  static Invocation invocation(ExtensionContext context) {
    return of(context).get(Invocation.class, Invocation.class);
  }

  /** Lets the tests of {@code context} see the per-class {@code scope}, which they do not close. */
  static void sharePerClass(ExtensionContext context, TestScope scope) {
    of(context).put(ScopeRef.class, new ScopeRef(scope));
  }

  /** The nearest scope: the test's own, else the per-class one it runs in. */
  static Optional<TestScope> scope(ExtensionContext context) {
    for (Optional<ExtensionContext> c = Optional.of(context);
        c.isPresent();
        c = c.get().getParent()) {
      ExtensionContext.Store store = c.get().getStore(NAMESPACE);
      TestScope scope = store.get(TestScope.class, TestScope.class);
      if (scope != null) {
        return Optional.of(scope);
      }
      ScopeRef shared = store.get(ScopeRef.class, ScopeRef.class);
      if (shared != null) {
        return Optional.of(shared.scope());
      }
    }
    return Optional.empty();
  }

  /**
   * {@code Store.getOrComputeIfAbsent}: deprecated in JUnit 6 for {@code computeIfAbsent}, which
   * JUnit 5 lacks (a 5.x BOM in the user's build would make it a NoSuchMethodError). The old name
   * works on every supported version.
   */
  @SuppressWarnings("deprecation")
  static <K, V> V computeIfAbsent(
      ExtensionContext.Store store, K key, Function<K, V> create, Class<V> type) {
    return store.getOrComputeIfAbsent(key, create, type);
  }

  /** A per-class scope, seen from a test's store: closed by its class, not by the test. */
  private record ScopeRef(TestScope scope) {}
}
