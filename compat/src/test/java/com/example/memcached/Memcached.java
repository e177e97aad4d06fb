package com.example.memcached;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/** The operator project's custom resource: a Memcached of {@code spec.size} replicas. */
@Group("cache.example.com")
@Version("v1alpha1")
public class Memcached extends CustomResource<Memcached.Spec, Void> implements Namespaced {

  public static class Spec {
    public int size;
  }

  public static Memcached of(String name, int size) {
    Memcached m = new Memcached();
    m.getMetadata().setName(name);
    m.setSpec(new Spec());
    m.getSpec().size = size;
    return m;
  }
}
