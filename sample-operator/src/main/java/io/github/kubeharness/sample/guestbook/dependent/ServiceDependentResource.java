package io.github.kubeharness.sample.guestbook.dependent;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.github.kubeharness.sample.guestbook.customresource.Guestbook;
import io.github.kubeharness.sample.guestbook.customresource.GuestbookSpec.ServiceType;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The Service in front of a Guestbook's pods: port 80, of {@code spec.serviceType}, on {@code
 * spec.nodePort} when one is given. The cluster IP and an unrequested node port are left to the API
 * server, which allocates them.
 */
public class ServiceDependentResource extends CRUDKubernetesDependentResource<Service, Guestbook> {

  /** A dependent configured to watch the operator's labelled Services. */
  public ServiceDependentResource() {
    super(Service.class);
    configureWith(Children.config(Service.class));
  }

  @Override
  protected Service desired(Guestbook guestbook, Context<Guestbook> context) {
    ServiceType type = guestbook.getSpec().getServiceType();
    ServicePortBuilder port =
        new ServicePortBuilder()
            .withName("http")
            .withPort(DeploymentDependentResource.PORT)
            .withTargetPort(new IntOrString("http"));
    if (type == ServiceType.NodePort && guestbook.getSpec().getNodePort() != null) {
      port.withNodePort(guestbook.getSpec().getNodePort());
    }
    return new ServiceBuilder()
        .withMetadata(Children.metadata(guestbook))
        .withNewSpec()
        .withType(type.name())
        .withSelector(Children.podSelector(guestbook))
        .withPorts(port.build())
        .endSpec()
        .build();
  }
}
