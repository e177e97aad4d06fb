package io.github.kubeharness.internal.controlplane;

import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.nio.file.Path;
import java.util.List;

/**
 * Client identities of a control plane whose CA kube-harness holds (local and container backends):
 * a kubeconfig per user, with a client certificate whose common name is the user and whose
 * organizations are the groups.
 */
public final class Identities {

  private final TinyCa ca;

  public Identities(TinyCa ca) {
    this.ca = ca;
  }

  /** A kubeconfig for {@code user} in {@code groups} against {@code server}. */
  public String kubeconfig(String server, String user, List<String> groups) {
    TinyCa.Issued cert = ca.issueClient(user, groups);
    return Kubeconfig.forClientCertificate(
        server, ca.certificatePem(), cert.certificatePem(), cert.privateKeyPem());
  }

  /**
   * A one-hour token for the ServiceAccount {@code namespace/name}, from the TokenRequest API: what
   * a pod of that ServiceAccount would present.
   */
  public static String serviceAccountToken(KubernetesClient admin, String namespace, String name) {
    return admin
        .serviceAccounts()
        .inNamespace(namespace)
        .withName(name)
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus()
        .getToken();
  }

  /** A new user, its kubeconfig also written to {@code usersDirectory} (what addUser returns). */
  public KubeUser user(String server, String name, List<String> groups, Path usersDirectory) {
    String config = kubeconfig(server, name, groups);
    Path file =
        PrivateFiles.write(
            usersDirectory.resolve(name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".kubeconfig"),
            config);
    return new KubeUser(name, List.copyOf(groups), config, file);
  }
}
