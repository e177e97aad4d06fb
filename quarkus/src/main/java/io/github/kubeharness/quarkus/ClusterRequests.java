package io.github.kubeharness.quarkus;

import io.github.kubeharness.integration.ClusterRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** What one {@link WithKubeHarness} (or a test resource's init args) asks for, as a value. */
final class ClusterRequests {

  private ClusterRequests() {}

  static ClusterRequest of(WithKubeHarness annotation) {
    return new ClusterRequest(
        annotation.backend(),
        annotation.profile(),
        annotation.kubernetesVersion(),
        List.of(annotation.crds()),
        List.of(),
        List.of(annotation.manifests()),
        annotation.serviceAccount());
  }

  /**
   * From {@code @WithTestResource(value = KubeHarnessTestResource.class, initArgs = ...)}: the
   * annotation's attribute names as keys, lists comma-separated.
   */
  static ClusterRequest of(Map<String, String> args) {
    return new ClusterRequest(
        args.getOrDefault("backend", ""),
        args.getOrDefault("profile", ""),
        args.getOrDefault("kubernetesVersion", ""),
        list(args.get("crds")),
        List.of(),
        list(args.get("manifests")),
        args.getOrDefault("serviceAccount", ""));
  }

  private static List<String> list(String value) {
    return value == null || value.isBlank()
        ? List.of()
        : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }
}
