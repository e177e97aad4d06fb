package io.github.kubeharness.samples.greeting;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The operator as a Spring Boot application: it builds its own client (from the kubeconfig fabric8
 * finds, in a pod its ServiceAccount) and its own JOSDK {@link Operator}, with every reconciler
 * bean registered.
 */
@SpringBootApplication
public class GreetingOperatorApplication {

  public static void main(String[] args) {
    SpringApplication.run(GreetingOperatorApplication.class, args);
  }

  @Bean(destroyMethod = "close")
  KubernetesClient kubernetesClient() {
    return new KubernetesClientBuilder().build();
  }

  @Bean(initMethod = "start", destroyMethod = "stop")
  Operator operator(KubernetesClient client, List<Reconciler<?>> reconcilers) {
    Operator operator = new Operator(overrider -> overrider.withKubernetesClient(client));
    reconcilers.forEach(operator::register);
    return operator;
  }
}
