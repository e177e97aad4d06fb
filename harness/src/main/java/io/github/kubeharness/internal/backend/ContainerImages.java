package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.Settings;

/**
 * The images of the container backend, named as upstream publishes them, each overridable by an
 * option (its setting resolved into {@link ControlPlaneOptions}). The etcd tag follows the etcd
 * version Kubernetes' own go.mod requires (what the Go build provisions), in the {@code
 * <version>-0} form of {@code registry.k8s.io/etcd}.
 */
final class ContainerImages {

  /** The settings that name the images, for messages. */
  static final String ETCD_SETTING = Settings.CONTAINER_ETCD_IMAGE;

  static final String APISERVER_SETTING = Settings.CONTAINER_APISERVER_IMAGE;
  static final String CONTROLLER_MANAGER_SETTING = Settings.CONTAINER_CONTROLLER_MANAGER_IMAGE;

  private ContainerImages() {}

  static String etcd(ControlPlaneOptions options) {
    String kubernetesVersion = options.kubernetesVersion();
    return options
        .containerEtcdImage()
        .orElse("registry.k8s.io/etcd:" + etcdVersion(kubernetesVersion) + "-0");
  }

  static String apiServer(ControlPlaneOptions options) {
    return options
        .containerApiServerImage()
        .orElse("registry.k8s.io/kube-apiserver:v" + options.kubernetesVersion());
  }

  static String controllerManager(ControlPlaneOptions options) {
    return options
        .containerControllerManagerImage()
        .orElse("registry.k8s.io/kube-controller-manager:v" + options.kubernetesVersion());
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
