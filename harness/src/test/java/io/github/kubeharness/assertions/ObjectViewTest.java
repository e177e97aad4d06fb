package io.github.kubeharness.assertions;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.github.kubeharness.assertions.ObjectView.Condition;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Generic reading of conditions, YAML and change paths, without a cluster. */
class ObjectViewTest {

  @Test
  void conditionsAreReadFromAGenericResource() {
    GenericKubernetesResource widget =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("test.kubeharness.io/v1")
            .withKind("Widget")
            .withNewMetadata()
            .withName("w")
            .endMetadata()
            .withAdditionalProperties(
                Map.of(
                    "status",
                    Map.of(
                        "conditions",
                        List.of(
                            Map.of(
                                "type",
                                "Ready",
                                "status",
                                "False",
                                "reason",
                                "Degraded",
                                "message",
                                "replica 2 crashed",
                                "observedGeneration",
                                3),
                            Map.of("type", "Progressing", "status", "True")))))
            .build();

    assertThat(ObjectView.conditions(widget))
        .map(Condition::toString)
        .containsExactly(
            "Ready=False (Degraded: replica 2 crashed) observedGeneration=3", "Progressing=True");
  }

  @Test
  void conditionsAreReadFromABuiltInKind() {
    var deployment =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName("d")
            .endMetadata()
            .withNewStatus()
            .withConditions(
                new DeploymentConditionBuilder()
                    .withType("Available")
                    .withStatus("True")
                    .withReason("MinimumReplicasAvailable")
                    .build())
            .endStatus()
            .build();

    assertThat(ObjectView.conditions(deployment))
        .map(Condition::toString)
        .containsExactly("Available=True (MinimumReplicasAvailable)");
  }

  @Test
  void yamlLeavesOutManagedFieldsAndIsCapped() {
    ConfigMapBuilder builder =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").build())
            .endMetadata();
    IntStream.range(0, 100).forEach(i -> builder.addToData("key" + i, "v"));
    String yaml = ObjectView.yaml(builder.build(), 20);

    assertThat(yaml).doesNotContain("managedFields").doesNotContain("kubectl").contains("name: c");
    assertThat(yaml.lines())
        .hasSize(21)
        .last()
        .asString()
        .matches("\\.\\.\\. \\(\\d+ more lines\\)");
  }

  @Test
  void changedPathsNameAddedRemovedAndChangedFields() {
    ConfigMap before =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("c")
            .withResourceVersion("1")
            .addToLabels("tier", "web")
            .endMetadata()
            .addToData("k", "old")
            .addToData("gone", "x")
            .build();
    ConfigMap after =
        new ConfigMapBuilder(before)
            .editMetadata()
            .withResourceVersion("2")
            .withLabels(Map.of("app", "demo"))
            .endMetadata()
            .withData(Map.of("k", "new"))
            .build();

    assertThat(ObjectDiff.changedPaths(before, after))
        .containsExactlyInAnyOrder(
            "data.k", "-data.gone", "-metadata.labels.tier", "+metadata.labels.app");
  }

  @Test
  void conditionsAreComparedByTypeAndLongDiffsAreCapped() {
    GenericKubernetesResource before = widgetWithStatus(Map.of("type", "Ready", "status", "False"));
    GenericKubernetesResource after = widgetWithStatus(Map.of("type", "Ready", "status", "True"));
    assertThat(ObjectDiff.changedPaths(before, after))
        .containsExactly("status.conditions[Ready].status");

    ConfigMapBuilder a = new ConfigMapBuilder();
    ConfigMapBuilder b = new ConfigMapBuilder();
    IntStream.range(0, 12).forEach(i -> a.addToData("k" + i, "a"));
    IntStream.range(0, 12).forEach(i -> b.addToData("k" + i, "b"));
    assertThat(ObjectDiff.changedPaths(a.build(), b.build()))
        .hasSize(ObjectDiff.MAX_PATHS + 1)
        .last()
        .isEqualTo("... 4 more");
  }

  private static GenericKubernetesResource widgetWithStatus(Map<String, Object> condition) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("test.kubeharness.io/v1")
        .withKind("Widget")
        .withNewMetadata()
        .withName("w")
        .endMetadata()
        .withAdditionalProperties(Map.of("status", Map.of("conditions", List.of(condition))))
        .build();
  }
}
