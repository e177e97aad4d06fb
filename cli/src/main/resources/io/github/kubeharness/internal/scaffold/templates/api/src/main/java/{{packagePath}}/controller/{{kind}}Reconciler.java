package {{package}}.controller;

import {{package}}.api.{{version}}.{{kind}};
import {{package}}.api.{{version}}.{{kind}}Status;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * Reconciles a {@link {{kind}}} into the Deployment it owns ({@link
 * {{kind}}DeploymentDependentResource}) and reports on it in the status. No finalizer: the
 * garbage collector deletes the Deployment with its owner.
 */
@ControllerConfiguration(name = "{{kindLower}}", fieldManager = "{{projectName}}")
@Workflow(dependents = @Dependent(type = {{kind}}DeploymentDependentResource.class))
public class {{kind}}Reconciler implements Reconciler<{{kind}}> {

  @Override
  public UpdateControl<{{kind}}> reconcile({{kind}} resource, Context<{{kind}}> context) {
    Deployment deployment = context.getSecondaryResource(Deployment.class).orElse(null);
    {{kind}}Status status = new {{kind}}Status();
    status.setObservedGeneration(resource.getMetadata().getGeneration());
    Integer ready = deployment == null ? null : deployment.getStatus() == null ? null
        : deployment.getStatus().getReadyReplicas();
    status.setReadyReplicas(ready == null ? 0 : ready);
    // A fresh object with identity and status only: applied, it claims nothing but the status.
    {{kind}} patch = new {{kind}}();
    patch.getMetadata().setName(resource.getMetadata().getName());
    patch.getMetadata().setNamespace(resource.getMetadata().getNamespace());
    patch.setStatus(status);
    return UpdateControl.patchStatus(patch);
  }
}
