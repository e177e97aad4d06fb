package io.github.kubeharness.internal.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Profile;
import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CRDs are applied once, and again when their file changes. */
class CrdInstallerIT {

  @Test
  void anEditedCrdFileIsReapplied(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("widgets.yaml");
    String original =
        Files.readString(Path.of("src/test/resources/crds/widgets.test.kubeharness.io.yaml"));
    Files.writeString(file, original);
    try (ControlPlane cp =
            ControlPlanes.create(
                ControlPlaneOptions.builder().withProfile(Profile.MINIMAL).build());
        KubernetesClient admin = start(cp)) {
      CrdInstaller installer = new CrdInstaller(admin);
      installer.install(List.of(file.toString()), List.of());
      String firstVersion = crd(admin).getMetadata().getResourceVersion();

      installer.install(List.of(file.toString()), List.of()); // unchanged: not applied again
      assertThat(crd(admin).getMetadata().getResourceVersion()).isEqualTo(firstVersion);

      Files.writeString(file, original.replace("maxLength: 64", "maxLength: 32"));
      installer.install(List.of(file.toString()), List.of());
      assertThat(
              crd(admin)
                  .getSpec()
                  .getVersions()
                  .get(0)
                  .getSchema()
                  .getOpenAPIV3Schema()
                  .getProperties()
                  .get("spec")
                  .getProperties()
                  .get("message")
                  .getMaxLength())
          .isEqualTo(32L);
    }
  }

  private static KubernetesClient start(ControlPlane cp) {
    cp.start();
    return cp.newClient();
  }

  private static CustomResourceDefinition crd(KubernetesClient admin) {
    return admin
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName("widgets.test.kubeharness.io")
        .get();
  }
}
