package io.github.kubeharness.internal.process;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Stops whatever is still running when the JVM exits normally or on SIGTERM/SIGINT. (On {@code kill
 * -9} no hook runs; the {@link Watchdog} covers that.) One hook for the whole JVM, registered on
 * first use.
 */
public final class ShutdownHooks {

  private static final Set<AutoCloseable> OPEN = new LinkedHashSet<>();
  private static boolean installed;
  private static volatile boolean shuttingDown;

  private ShutdownHooks() {}

  /** Close {@code resource} at JVM exit unless it is unregistered first. */
  public static synchronized void register(AutoCloseable resource) {
    if (!installed) {
      Runtime.getRuntime()
          .addShutdownHook(new Thread(ShutdownHooks::closeAll, "kube-harness-shutdown"));
      installed = true;
    }
    OPEN.add(resource);
  }

  /** The resource was closed normally. */
  public static synchronized void unregister(AutoCloseable resource) {
    OPEN.remove(resource);
  }

  /** True once the JVM has begun to exit (Ctrl-C, SIGTERM, System.exit). */
  public static boolean shuttingDown() {
    return shuttingDown;
  }

  private static void closeAll() {
    shuttingDown = true;
    List<AutoCloseable> toClose;
    synchronized (ShutdownHooks.class) {
      toClose = new ArrayList<>(OPEN);
    }
    // Last started, first stopped: a later resource may depend on an earlier one.
    for (int i = toClose.size() - 1; i >= 0; i--) {
      try {
        toClose.get(i).close();
      } catch (Exception e) {
        System.err.println("[kube-harness] while stopping at JVM exit: " + e);
      }
    }
  }
}
