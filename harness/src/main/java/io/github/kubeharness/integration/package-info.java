/**
 * What framework integrations (kube-harness-spring, kube-harness-quarkus, or your own) build on
 * when tests run their own way rather than through {@code @ControllerTest}: control planes shared
 * by the JVM, a namespace per test and its failure report, options from an annotation's strings.
 */
package io.github.kubeharness.integration;
