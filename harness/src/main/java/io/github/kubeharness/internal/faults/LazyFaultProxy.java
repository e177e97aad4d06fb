package io.github.kubeharness.internal.faults;

import io.github.kubeharness.internal.controlplane.Pki;
import java.util.Optional;

/**
 * The fault proxy of a control plane, started the first time something asks for it: most test
 * classes never use faults, and starting Vert.x's server with TLS cost a fresh JVM ~1.4 s of the
 * start path (measured with timestamps in {@code start()}).
 */
public final class LazyFaultProxy implements AutoCloseable {

  private final Pki pki;
  private final int apiServerPort;
  private FaultProxy proxy;

  public LazyFaultProxy(Pki pki, int apiServerPort) {
    this.pki = pki;
    this.apiServerPort = apiServerPort;
  }

  /** The proxy, started now if it was not. */
  public synchronized FaultProxy get() {
    if (proxy == null) {
      proxy = FaultProxy.start(pki, apiServerPort);
    }
    return proxy;
  }

  /** The proxy if it was started. */
  synchronized Optional<FaultProxy> ifStarted() {
    return Optional.ofNullable(proxy);
  }

  @Override
  public synchronized void close() {
    if (proxy != null) {
      proxy.close();
      proxy = null;
    }
  }
}
