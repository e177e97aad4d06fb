package io.github.kubeharness.settings;

import io.github.kubeharness.Settings;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code kubeharness.kind.reuse}, the kind backend's own reuse switch before {@link Settings#REUSE}
 * served every backend that can keep a cluster: a documented deprecated name. Still honoured on the
 * kind backend when {@code kubeharness.reuse} is unset, with a one-line notice, so that scripts
 * written for it keep working until they move.
 */
final class DeprecatedKindReuse {

  static final Setting<Boolean> KIND_REUSE =
      Setting.flag("kubeharness.kind.reuse", false)
          .doc("deprecated: " + Settings.REUSE + " on kind");

  // The notice is said once per JVM, not once per options built.
  private static final AtomicBoolean NOTICED = new AtomicBoolean();

  private DeprecatedKindReuse() {}

  /** Whether the deprecated switch asks for reuse; says once that it is deprecated. */
  static boolean asked() {
    Optional<Boolean> asked = KIND_REUSE.read();
    if (asked.isPresent() && NOTICED.compareAndSet(false, true)) {
      System.err.println(
          "[kube-harness] "
              + KIND_REUSE.property()
              + " is deprecated: set "
              + Settings.REUSE
              + "=true (it keeps local and kind clusters alike)");
    }
    return asked.orElse(false);
  }
}
