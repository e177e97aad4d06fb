package io.github.kubeharness;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.internal.manifest.CrdInstaller;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.util.List;

/** The free-form Widget CRD the harness's own tests use, in a group of their choice. */
public final class TestCrds {

  private TestCrds() {}

  /** The Widget resource of {@link #widgets(String)}, for generic clients. */
  public static ResourceDefinitionContext widgetResource(String group) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion("v1")
        .withKind("Widget")
        .withPlural("widgets")
        .withNamespaced(true)
        .build();
  }

  /** {@code widgets.<group>}: namespaced, v1, any fields, status subresource. */
  public static CustomResourceDefinition widgets(String group) {
    return freeForm(group, "Widget", "widgets");
  }

  /** {@code <plural>.<group>}: namespaced, v1, any fields, status subresource. */
  public static CustomResourceDefinition freeForm(String group, String kind, String plural) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(plural + "." + group)
        .endMetadata()
        .withNewSpec()
        .withGroup(group)
        .withScope("Namespaced")
        .withNewNames()
        .withKind(kind)
        .withPlural(plural)
        .withSingular(kind.toLowerCase(java.util.Locale.ROOT))
        .endNames()
        .addNewVersion()
        .withName("v1")
        .withServed(true)
        .withStorage(true)
        .withNewSubresources()
        .withNewStatus()
        .endStatus()
        .endSubresources()
        .withNewSchema()
        .withNewOpenAPIV3Schema()
        .withType("object")
        .withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema()
        .endSchema()
        .endVersion()
        .endSpec()
        .build();
  }

  /** Installs {@link #widgets} and waits until it is Established and served. */
  public static void installWidgets(KubernetesClient admin, String group) {
    new CrdInstaller(admin)
        .install(
            List.of(
                new ManifestFiles.Document(
                    Serialization.jsonMapper().valueToTree(widgets(group)), "TestCrds", false)));
  }
}
