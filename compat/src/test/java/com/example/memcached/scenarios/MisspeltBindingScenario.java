package com.example.memcached.scenarios;

import com.example.memcached.MemcachedReconciler;
import io.github.kubeharness.junit.ControllerTest;
import org.junit.jupiter.api.Test;

/** role_binding.yaml names "controller-manger": must fail, naming both ServiceAccounts. */
@ControllerTest(
    crds = "classpath:crds/memcacheds.cache.example.com.yaml",
    reconcilers = MemcachedReconciler.class,
    rbac = "target/test-classes/config/rbac-misspelt")
public class MisspeltBindingScenario {

  @Test
  void anything() {}
}
