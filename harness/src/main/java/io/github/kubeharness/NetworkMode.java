package io.github.kubeharness;

/** How containers of the container and k3s backends reach each other and the test. */
public enum NetworkMode {
  /** A Docker network and mapped ports: what a normal Docker machine offers. The default. */
  BRIDGE,
  /**
   * The host's network: servers bind 127.0.0.1 on free ports, as the local backend does. For
   * machines whose Docker runs without a bridge ({@code dockerd --bridge=none}).
   */
  HOST;

  /** Parses {@code bridge} or {@code host} (any case), naming the source on failure. */
  public static NetworkMode parse(String value, String source) {
    return Settings.parseEnum(value, NetworkMode.class, source);
  }
}
