package io.github.kubeharness.sample.guestbook.dependent;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The Deployment running a Guestbook's web server: {@code spec.replicas} pods of {@code
 * spec.image}, serving the ConfigMap's page from {@code /usr/share/nginx/html}. Only the fields
 * below are applied (server-side apply), so a hand edit of any of them is put back, while fields
 * other managers own (such as an autoscaler's) are left alone.
 */
public class DeploymentDependentResource
    extends CRUDKubernetesDependentResource<Deployment, Guestbook> {

  /** Name of the web server container. */
  public static final String CONTAINER = "guestbook";

  /** Container port the web server listens on. */
  public static final int PORT = 80;

  private static final String CONTENT = "content";

  /** A dependent configured to watch the operator's labelled Deployments. */
  public DeploymentDependentResource() {
    super(Deployment.class);
    configureWith(Children.config(Deployment.class));
  }

  @Override
  protected Deployment desired(Guestbook guestbook, Context<Guestbook> context) {
    String name = guestbook.getMetadata().getName();
    return new DeploymentBuilder()
        .withMetadata(Children.metadata(guestbook))
        .withNewSpec()
        .withReplicas(guestbook.getSpec().getReplicas())
        .withNewSelector()
        .withMatchLabels(Children.podSelector(guestbook))
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(Children.podSelector(guestbook))
        .endMetadata()
        .withNewSpec()
        .withContainers(
            new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(guestbook.getSpec().getImage())
                .addNewPort()
                .withName("http")
                .withContainerPort(PORT)
                .endPort()
                .addNewVolumeMount()
                .withName(CONTENT)
                .withMountPath("/usr/share/nginx/html")
                .withReadOnly(true)
                .endVolumeMount()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/")
                .withPort(new IntOrString("http"))
                .endHttpGet()
                .endReadinessProbe()
                .build())
        .addNewVolume()
        .withName(CONTENT)
        .withNewConfigMap()
        .withName(name)
        .endConfigMap()
        .endVolume()
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }
}
