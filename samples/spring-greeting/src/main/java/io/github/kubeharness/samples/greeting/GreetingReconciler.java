package io.github.kubeharness.samples.greeting;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import org.springframework.stereotype.Component;

/** Publishes each Greeting's message as a ConfigMap it owns, then marks the Greeting ready. */
@Component
@ControllerConfiguration
public class GreetingReconciler implements Reconciler<Greeting> {

  @Override
  public UpdateControl<Greeting> reconcile(Greeting greeting, Context<Greeting> context) {
    ConfigMap published =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName(greeting.getMetadata().getName())
            .withNamespace(greeting.getMetadata().getNamespace())
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion(greeting.getApiVersion())
                    .withKind(greeting.getKind())
                    .withName(greeting.getMetadata().getName())
                    .withUid(greeting.getMetadata().getUid())
                    .withController(true)
                    .build())
            .endMetadata()
            .addToData("message", greeting.getSpec().message)
            .build();
    context.getClient().configMaps().resource(published).forceConflicts().serverSideApply();

    Greeting status = new Greeting();
    status.setMetadata(greeting.getMetadata());
    status.setStatus(new Greeting.Status());
    status.getStatus().ready = true;
    status.getStatus().observedGeneration = greeting.getMetadata().getGeneration();
    return UpdateControl.patchStatus(status);
  }
}
