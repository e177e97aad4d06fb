package {{package}}.controller;

import {{package}}.api.{{version}}.{{kind}};
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;
import java.util.Map;

/**
 * The Deployment a {@link {{kind}}} owns: {@code spec.replicas} pods of {@code spec.image}. JOSDK
 * applies what {@link #desired} returns (server-side apply), sets the owner reference, and watches
 * Deployments so that a hand edit is put back; the garbage collector deletes it with its owner.
 */
public class {{kind}}DeploymentDependentResource
    extends CRUDKubernetesDependentResource<Deployment, {{kind}}> {

  /** A dependent for Deployments. */
  public {{kind}}DeploymentDependentResource() {
    super(Deployment.class);
  }

  @Override
  protected Deployment desired({{kind}} primary, Context<{{kind}}> context) {
    Map<String, String> labels =
        Map.of("app.kubernetes.io/name", primary.getMetadata().getName(),
            "app.kubernetes.io/managed-by", "{{projectName}}");
    return new DeploymentBuilder()
        .withNewMetadata()
        .withName(primary.getMetadata().getName())
        .withNamespace(primary.getMetadata().getNamespace())
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .withReplicas(primary.getSpec().getReplicas())
        .withNewSelector()
        .withMatchLabels(labels)
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("{{kindLower}}")
        .withImage(primary.getSpec().getImage())
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
