/**
 * Eventual and consistent assertions on Kubernetes objects, driven by a watch, with failure
 * messages that show the object as last seen and the changes seen while waiting. Start at {@link
 * io.github.kubeharness.assertions.KubeAssertions}.
 */
package io.github.kubeharness.assertions;
