package io.github.kubeharness.internal.backend;

import io.github.kubeharness.BackendOptions;
import io.github.kubeharness.Settings;

/**
 * The images of the container backend, named as upstream publishes them, each overridable by an
 * option of the backend's {@link BackendOptions.Container} (its setting resolved there). The etcd
 * tag follows the etcd version Kubernetes' own go.mod requires (what the Go build provisions), in
 * the {@code <version>-0} form of {@code registry.k8s.io/etcd}.
 */
final class ContainerImages {

  /** The settings that name the images, for messages. */
  static final String ETCD_SETTING = Settings.CONTAINER_ETCD_IMAGE;

  static final String APISERVER_SETTING = Settings.CONTAINER_APISERVER_IMAGE;
  static final String CONTROLLER_MANAGER_SETTING = Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE;

  private ContainerImages() {}

  static String etcd(String kubernetesVersion, BackendOptions.Container container) {
    return container
        .etcdImage()
        .orElse("registry.k8s.io/etcd:" + etcdVersion(kubernetesVersion) + "-0");
  }

  static String apiServer(String kubernetesVersion, BackendOptions.Container container) {
    return container
        .apiServerImage()
        .orElse("registry.k8s.io/kube-apiserver:v" + kubernetesVersion);
  }

  static String controllerManager(String kubernetesVersion, BackendOptions.Container container) {
    return container
        .controllerManagerImage()
        .orElse("registry.k8s.io/kube-controller-manager:v" + kubernetesVersion);
  }

  /** etcd of a Kubernetes minor, from its go.mod; newer minors than known take the newest. */
  static String etcdVersion(String kubernetesVersion) {
    int minor = Integer.parseInt(kubernetesVersion.split("\\.")[1]);
    if (minor >= 37) {
      return "3.7.0";
    }
    if (minor >= 34) {
      return "3.6.4";
    }
    return "3.5.21";
  }
}
