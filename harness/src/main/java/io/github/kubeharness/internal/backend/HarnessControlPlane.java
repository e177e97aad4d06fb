package io.github.kubeharness.internal.backend;

import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.faults.ProxyFaults;
import io.github.kubeharness.internal.manifest.ManifestFiles;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;

/**
 * A control plane made by kube-harness ({@link Backends#newControlPlane}), as the harness itself
 * uses it: what the public {@link ControlPlane} does not show. Typed, so that the harness never
 * probes a control plane's class to learn what it can do.
 */
public interface HarnessControlPlane extends ControlPlane {

  /**
   * The options this control plane was made from: what a further cluster beside it, a whole control
   * plane of its own, is made from ({@link Backends#newClusterBeside}).
   */
  ControlPlaneOptions options();

  /**
   * A further cluster named {@code name} on this control plane's etcd, not yet started, when this
   * control plane runs an etcd that another apiserver can share (the local backend); empty
   * otherwise, and a cluster beside this one is a whole control plane of its own.
   */
  default Optional<HarnessControlPlane> clusterOnSharedEtcd(String name) {
    return Optional.empty();
  }

  /**
   * Installs CRD documents already read (and rewritten, for conversion webhooks), as {@link
   * #installCrds} does.
   */
  int installCrdDocuments(List<ManifestFiles.Document> documents);

  /**
   * The CA of the client certificate this control plane's kube-apiserver presents to admission
   * webhooks ({@link io.github.kubeharness.internal.controlplane.WebhookClient}): present where
   * kube-harness starts kube-apiserver with its own flags and CA (local, container); empty where it
   * does not configure the API server (k3s, kind, existing).
   */
  default Optional<X509Certificate> webhookClientCa() {
    return Optional.empty();
  }

  /**
   * The fault proxy in front of the API server, when this control plane has one: a started local
   * control plane this JVM owns ({@link io.github.kubeharness.Backend.Feature#FAULTS}).
   */
  default Optional<ProxyFaults> proxyFaults() {
    return Optional.empty();
  }
}
