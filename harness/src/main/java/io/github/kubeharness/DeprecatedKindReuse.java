package io.github.kubeharness;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code kubeharness.kind.reuse}, the kind backend's own reuse switch before {@link Settings#REUSE}
 * served every backend that can keep a cluster. Still honoured on the kind backend when {@code
 * kubeharness.reuse} is unset, with a one-line notice, so that scripts written for it keep working
 * until they move.
 */
final class DeprecatedKindReuse {

  static final String PROPERTY = "kubeharness.kind.reuse";

  // The notice is said once per JVM, not once per options built.
  private static final AtomicBoolean NOTICED = new AtomicBoolean();

  private DeprecatedKindReuse() {}

  /** Whether the deprecated switch asks for reuse; says once that it is deprecated. */
  static boolean asked() {
    Setting<Boolean> old =
        Setting.flag(PROPERTY, false).doc("deprecated: " + Settings.REUSE + " on kind");
    boolean asked = old.resolve();
    if (old.value().isPresent() && NOTICED.compareAndSet(false, true)) {
      System.err.println(
          "[kube-harness] "
              + PROPERTY
              + " is deprecated: set "
              + Settings.REUSE
              + "=true (it keeps local and kind clusters alike)");
    }
    return asked;
  }
}
