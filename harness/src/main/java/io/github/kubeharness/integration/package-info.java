/**
 * The one integration core that framework integrations (kube-harness-spring, kube-harness-quarkus,
 * or your own) are thin adapters over, when tests run their own way rather than through
 * {@code @ControllerTest}: a {@link io.github.kubeharness.integration.ClusterRequest} from the
 * framework's annotation, the JVM's control plane for it prepared for the application ({@link
 * io.github.kubeharness.integration.PreparedCluster}, from the registry {@code @ControllerTest}
 * uses too, {@link io.github.kubeharness.integration.SharedControlPlanes}), and a namespace per
 * test with its failure report ({@link io.github.kubeharness.integration.KubeHarnessCore}).
 */
package io.github.kubeharness.integration;
