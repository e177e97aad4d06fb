package com.example.memcached;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** For each Memcached, a Deployment of its size, owned by it; a finalizer-backed cleanup. */
@ControllerConfiguration(name = "memcached")
public class MemcachedReconciler implements Reconciler<Memcached>, Cleaner<Memcached> {

  public final AtomicInteger cleanups = new AtomicInteger();

  @Override
  public UpdateControl<Memcached> reconcile(Memcached memcached, Context<Memcached> context) {
    String name = memcached.getMetadata().getName();
    Map<String, String> labels = Map.of("app", "memcached", "memcached", name);
    Deployment desired =
        new DeploymentBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(memcached.getMetadata().getNamespace())
            .endMetadata()
            .withNewSpec()
            .withReplicas(memcached.getSpec().size)
            .withNewSelector()
            .withMatchLabels(labels)
            .endSelector()
            .withNewTemplate()
            .withNewMetadata()
            .withLabels(labels)
            .endMetadata()
            .withNewSpec()
            .addNewContainer()
            .withName("memcached")
            .withImage("memcached:1.6")
            .endContainer()
            .endSpec()
            .endTemplate()
            .endSpec()
            .build();
    desired.addOwnerReference(memcached);
    context.getClient().resource(desired).forceConflicts().serverSideApply();
    return UpdateControl.noUpdate();
  }

  @Override
  public DeleteControl cleanup(Memcached memcached, Context<Memcached> context) {
    cleanups.incrementAndGet();
    return DeleteControl.defaultDelete();
  }
}
