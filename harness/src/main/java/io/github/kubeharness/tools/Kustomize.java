package io.github.kubeharness.tools;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.KubeHarnessException;
import io.github.kubeharness.Profile;
import io.github.kubeharness.internal.provision.BinaryResolver;
import io.github.kubeharness.settings.SettingsResolver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a kustomization with the real kustomize — {@code kubectl kustomize}, using the kubectl
 * kube-harness provisions like the control-plane binaries — so a test can check exactly what {@code
 * kubectl apply -k} (or {@code make deploy}) would apply.
 *
 * <pre>{@code
 * for (GenericKubernetesResource object : Kustomize.build(Path.of("config/default"))) { ... }
 * }</pre>
 */
public final class Kustomize {

  private Kustomize() {}

  /** The YAML {@code kubectl kustomize directory} prints. */
  public static String render(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new KubeHarnessException(
          "Kustomization directory " + directory.toAbsolutePath() + " does not exist.");
    }
    Path kubectl =
        new BinaryResolver(SettingsResolver.resolve(ControlPlaneOptions.defaults()))
            .resolve(Profile.MINIMAL, true)
            .kubectl()
            .orElseThrow(() -> new KubeHarnessException("kubectl could not be provisioned"));
    try {
      Path errors = Files.createTempFile("kube-harness-kustomize", ".log");
      try {
        Process process =
            new ProcessBuilder(kubectl.toString(), "kustomize", directory.toString())
                .redirectError(errors.toFile())
                .start();
        String yaml = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
          throw new KubeHarnessException(
              "kubectl kustomize "
                  + directory
                  + " failed: "
                  + Files.readString(errors).strip()
                  + ". Fix the kustomization (try the same command by hand: "
                  + kubectl
                  + " kustomize "
                  + directory
                  + ").");
        }
        return yaml;
      } finally {
        Files.deleteIfExists(errors);
      }
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot run " + kubectl + " kustomize: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KubeHarnessException("Interrupted while rendering " + directory, e);
    }
  }

  /** The objects {@code kubectl kustomize directory} renders, in its order. */
  public static List<GenericKubernetesResource> build(Path directory) {
    List<GenericKubernetesResource> objects = new ArrayList<>();
    for (String document : render(directory).split("(?m)^---\\s*$")) {
      if (document.isBlank()) {
        continue;
      }
      objects.add(Serialization.unmarshal(document, GenericKubernetesResource.class));
    }
    return objects;
  }
}
