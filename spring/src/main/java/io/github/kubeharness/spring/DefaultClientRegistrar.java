package io.github.kubeharness.spring;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;

/**
 * Gives an application that defines no {@code KubernetesClient} bean one for the control plane; one
 * that defines its own keeps it (it reaches the control plane through the {@code kubeconfig} system
 * property, which fabric8 reads when the client is built).
 */
final class DefaultClientRegistrar implements BeanDefinitionRegistryPostProcessor {

  private final Path kubeconfig;

  DefaultClientRegistrar(Path kubeconfig) {
    this.kubeconfig = kubeconfig;
  }

  @Override
  public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
    if (registry instanceof ListableBeanFactory beans
        && beans.getBeanNamesForType(KubernetesClient.class, true, false).length > 0) {
      return;
    }
    RootBeanDefinition client = new RootBeanDefinition(KubernetesClient.class, this::newClient);
    client.setDestroyMethodName("close");
    registry.registerBeanDefinition("kubernetesClient", client);
  }

  private KubernetesClient newClient() {
    try {
      return new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
          .build();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + kubeconfig, e);
    }
  }
}
