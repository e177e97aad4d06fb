package io.github.kubeharness.internal.junit;

import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A value kept in a JUnit store that JUnit closes with the store, on every supported JUnit: 5.10 to
 * 5.12 close only {@code CloseableResource}s, 5.13 and 6 prefer {@code AutoCloseable} (and close a
 * value that is both exactly once).
 */
@SuppressWarnings(
    "deprecation") // CloseableResource: deprecated in 5.13, still the only way on 5.10
interface JUnitResource extends AutoCloseable, ExtensionContext.Store.CloseableResource {

  @Override
  void close();
}
