package io.github.kubeharness.internal.provision;

import java.util.Locale;

/** The os/arch pair in Go's spelling ({@code linux-amd64}), as envtest archives name them. */
public record Platform(String os, String arch) {

  /** The platform of this JVM. */
  public static Platform current() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String goOs =
        os.contains("mac") || os.contains("darwin")
            ? "darwin"
            : os.contains("win") ? "windows" : "linux";
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String goArch =
        switch (arch) {
          case "amd64", "x86_64" -> "amd64";
          case "aarch64", "arm64" -> "arm64";
          case "ppc64le" -> "ppc64le";
          case "s390x" -> "s390x";
          default -> arch;
        };
    return new Platform(goOs, goArch);
  }

  @Override
  public String toString() {
    return os + "-" + arch;
  }
}
