package io.github.kubeharness.internal.backend;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Files kube-harness ships in its own jar under {@code io/github/kubeharness/}: the kind cluster
 * configurations, KWOK's stages.
 */
final class BundledResources {

  private static final String ROOT = "/io/github/kubeharness/";

  private BundledResources() {}

  /** The text of {@code name} (relative to {@code io/github/kubeharness/}). */
  public static String text(String name) {
    try (InputStream in = BundledResources.class.getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new KubeHarnessException("kube-harness's jar lacks its resource " + ROOT + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read " + ROOT + name + ": " + e, e);
    }
  }
}
