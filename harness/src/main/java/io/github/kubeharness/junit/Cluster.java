package io.github.kubeharness.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Which of the test's clusters ({@link ControllerTest#clusters()}) an injected field or parameter
 * belongs to: {@code @Cluster("edge-1") KubernetesClient edge} is a client of cluster {@code
 * edge-1}, namespaced to the test's namespace there. Works for everything the extension injects
 * (the client, {@code ControlPlane}, {@code KubeAssertions}, {@code Faults}, {@code Simulation},
 * {@code @TestNamespace String} and the running reconcilers and controllers placed there). Without
 * it, an injected value is the first (default) cluster's.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Cluster {

  /** The cluster's name, one of {@link ControllerTest#clusters()}. */
  String value();
}
