package io.github.kubeharness.quarkus;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the field of a {@link WithKubeHarness} test that receives its {@link KubeHarness}:
 * {@code @InjectKubeHarness KubeHarness kube;}. The field also gives each test method its own
 * namespace.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface InjectKubeHarness {}
