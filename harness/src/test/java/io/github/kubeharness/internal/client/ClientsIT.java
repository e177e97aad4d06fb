package io.github.kubeharness.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.kubeharness.ControlPlane;
import io.github.kubeharness.KubeUser;
import io.github.kubeharness.internal.controlplane.Identities;
import io.github.kubeharness.internal.controlplane.Kubeconfig;
import io.github.kubeharness.internal.controlplane.PemKeys;
import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clients kube-harness builds ({@link Clients}) against a real API server: TLS from the
 * kubeconfig made in memory, authenticating as the kubeconfig's user, trusting its CA alone; what
 * that cannot read goes through fabric8's own TLS set-up.
 */
@ControllerTest
class ClientsIT {

  ControlPlane controlPlane;
  KubernetesClient admin;
  @TestNamespace String namespace;

  @Test
  void authenticatesAsTheKubeconfigsUser() {
    KubeUser alice = controlPlane.addUser("alice", List.of());
    try (KubernetesClient client = Clients.create(alice.config())) {
      assertThatThrownBy(() -> client.namespaces().list())
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining("User \"alice\" cannot list resource \"namespaces\"");
    }
  }

  @Test
  void readsAPkcs8EcKey() {
    Config config = controlPlane.clientConfig();
    String sec1 = decoded(config.getClientKeyData());
    byte[] pkcs8 = PemKeys.privateKey(sec1).orElseThrow().getEncoded();
    String pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder().encodeToString(pkcs8)
            + "\n-----END PRIVATE KEY-----\n";
    Config pkcs8Config = new ConfigBuilder(config).withClientKeyData(encoded(pem)).build();
    try (KubernetesClient client = Clients.create(pkcs8Config)) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  @Test
  void trustsTheKubeconfigsCaAndNoOther() {
    String strangerCa = encoded(TinyCa.create("a-stranger").certificatePem());
    // No retries: fabric8 would try a failed handshake again for seconds.
    Config config =
        new ConfigBuilder(controlPlane.clientConfig())
            .withCaCertData(strangerCa)
            .withRequestRetryBackoffLimit(0)
            .build();
    try (KubernetesClient client = Clients.create(config)) {
      assertThatThrownBy(() -> client.namespaces().withName("default").get())
          .hasRootCauseInstanceOf(java.security.cert.CertPathBuilderException.class);
    }
  }

  @Test
  void aTokenKubeconfigTrustsItsCaFromMemoryToo() {
    admin
        .serviceAccounts()
        .inNamespace(namespace)
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("bob").endMetadata().build())
        .create();
    String token = Identities.serviceAccountToken(admin, namespace, "bob");
    Config config =
        Config.fromKubeconfig(
            Kubeconfig.forToken(
                controlPlane.apiServerUrl(), controlPlane.clientConfig().getCaCertData(), token));
    try (KubernetesClient client = Clients.create(config)) {
      assertThatThrownBy(() -> client.namespaces().list())
          .hasMessageContaining("system:serviceaccount:" + namespace + ":bob");
    }
  }

  @Test
  void keyFilesGoThroughFabric8AsTheyAre(@TempDir Path dir) throws Exception {
    Config config = controlPlane.clientConfig();
    Path cert = Files.writeString(dir.resolve("admin.crt"), decoded(config.getClientCertData()));
    Path key = Files.writeString(dir.resolve("admin.key"), decoded(config.getClientKeyData()));
    Config files =
        new ConfigBuilder(config)
            .withClientCertData(null)
            .withClientKeyData(null)
            .withClientCertFile(cert.toString())
            .withClientKeyFile(key.toString())
            .build();
    try (KubernetesClient client = Clients.create(files)) {
      assertThat(client.namespaces().withName("default").get()).isNotNull();
    }
  }

  private static String decoded(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.US_ASCII);
  }

  private static String encoded(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
