package io.github.kubeharness.quarkus;

import io.github.kubeharness.integration.AnnotationOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** What one {@link WithKubeHarness} (or a test resource's init args) asks for, as a value. */
record ClusterRequest(
    String backend,
    String profile,
    String kubernetesVersion,
    List<String> crds,
    List<String> manifests,
    String serviceAccount) {

  static ClusterRequest of(WithKubeHarness annotation) {
    return new ClusterRequest(
        annotation.backend(),
        annotation.profile(),
        annotation.kubernetesVersion(),
        List.of(annotation.crds()),
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
        list(args.get("manifests")),
        args.getOrDefault("serviceAccount", ""));
  }

  private static List<String> list(String value) {
    return value == null || value.isBlank()
        ? List.of()
        : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
  }

  /** The ServiceAccount's namespace and name; a clear error when it is not {@code ns/name}. */
  String[] serviceAccountParts(String where) {
    return AnnotationOptions.serviceAccount(serviceAccount, where);
  }
}
