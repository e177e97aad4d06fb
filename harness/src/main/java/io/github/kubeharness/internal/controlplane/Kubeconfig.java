package io.github.kubeharness.internal.controlplane;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.AuthInfoBuilder;
import io.fabric8.kubernetes.api.model.ConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** Kubeconfigs with one cluster, one user and one context, from fabric8's kubeconfig model. */
public final class Kubeconfig {

  private static final String NAME = "kube-harness";

  private Kubeconfig() {}

  /** A user authenticated by a client certificate; certificates and key embedded as data. */
  public static String forClientCertificate(
      String serverUrl, String caPem, String certPem, String keyPem) {
    return render(
        serverUrl,
        base64(caPem),
        new AuthInfoBuilder()
            .withClientCertificateData(base64(certPem))
            .withClientKeyData(base64(keyPem))
            .build());
  }

  /** A user authenticated by a bearer token (a ServiceAccount's). */
  public static String forToken(String serverUrl, String caData, String token) {
    return render(serverUrl, caData, new AuthInfoBuilder().withToken(token).build());
  }

  /** The CA certificate of a client configuration as base64 data, wherever it was given. */
  public static String caData(Config config) {
    if (config.getCaCertData() != null) {
      return config.getCaCertData();
    }
    if (config.getCaCertFile() == null) {
      return null;
    }
    try {
      return Base64.getEncoder()
          .encodeToString(Files.readAllBytes(Path.of(config.getCaCertFile())));
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot read the CA file " + config.getCaCertFile(), e);
    }
  }

  private static String render(String serverUrl, String caData, AuthInfo user) {
    return Serialization.asYaml(
        new ConfigBuilder()
            .withApiVersion("v1")
            .withKind("Config")
            .addNewCluster()
            .withName(NAME)
            .withNewCluster()
            .withServer(serverUrl)
            .withCertificateAuthorityData(caData)
            .endCluster()
            .endCluster()
            .addNewUser()
            .withName(NAME)
            .withUser(user)
            .endUser()
            .addNewContext()
            .withName(NAME)
            .withNewContext()
            .withCluster(NAME)
            .withUser(NAME)
            .withNamespace("default")
            .endContext()
            .endContext()
            .withCurrentContext(NAME)
            .build());
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8));
  }
}
