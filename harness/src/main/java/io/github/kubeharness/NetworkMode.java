package io.github.kubeharness;

/** How containers of the container and k3s backends reach each other and the test. */
public enum NetworkMode {
  /** A Docker network and mapped ports: what a normal Docker machine offers. The default. */
  BRIDGE,
  /**
   * The host's network: servers bind 127.0.0.1 on free ports, as the local backend does, and the
   * API server can call webhooks in the test JVM. Bridge mode runs on an engine without its default
   * bridge network ({@code dockerd --bridge=none}) too: it makes a network of its own.
   */
  HOST;
}
