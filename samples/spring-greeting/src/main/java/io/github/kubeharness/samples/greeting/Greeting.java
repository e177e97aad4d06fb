package io.github.kubeharness.samples.greeting;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** A greeting the operator publishes as a ConfigMap of the same name. */
@Group("demo.example.com")
@Version("v1")
public class Greeting extends CustomResource<Greeting.Spec, Greeting.Status> implements Namespaced {

  /** What to publish. */
  public static class Spec {
    public String message;
  }

  /** Whether the ConfigMap holds the current message. */
  public static class Status {
    public Boolean ready;
    public Long observedGeneration;
  }

  /** A greeting named {@code name} saying {@code message}. */
  public static Greeting named(String name, String message) {
    Greeting greeting = new Greeting();
    greeting.getMetadata().setName(name);
    greeting.setSpec(new Spec());
    greeting.getSpec().message = message;
    return greeting;
  }
}
