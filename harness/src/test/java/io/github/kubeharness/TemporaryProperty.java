package io.github.kubeharness;

/**
 * A system property changed for a while: {@code try (var p = TemporaryProperty.set(name, value))}
 * puts back on close what was there before, or nothing if nothing was. Settings are read from
 * system properties, so a test that clobbered one would change every test after it in the JVM.
 */
public final class TemporaryProperty implements AutoCloseable {

  private final String name;
  private final String before;

  private TemporaryProperty(String name, String value) {
    this.name = name;
    this.before = value == null ? System.clearProperty(name) : System.setProperty(name, value);
  }

  /** Sets {@code name} to {@code value} until {@link #close()}. */
  public static TemporaryProperty set(String name, String value) {
    return new TemporaryProperty(name, value);
  }

  /** Removes {@code name} until {@link #close()}. */
  public static TemporaryProperty cleared(String name) {
    return new TemporaryProperty(name, null);
  }

  @Override
  public void close() {
    if (before == null) {
      System.clearProperty(name);
    } else {
      System.setProperty(name, before);
    }
  }
}
