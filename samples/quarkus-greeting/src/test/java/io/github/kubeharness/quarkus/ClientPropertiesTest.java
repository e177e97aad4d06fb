package io.github.kubeharness.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test resource's properties carry no secret: an {@code @QuarkusIntegrationTest} passes them to
 * the application it launches as {@code -D} arguments, readable by every local user in {@code
 * /proc/<pid>/cmdline}. The client key and the token reach the application through files.
 */
class ClientPropertiesTest {

  private static final String KEY_PEM = "-----BEGIN PRIVATE KEY-----\nS3CR3TKEY\n";
  private static final String CERT_PEM = "-----BEGIN CERTIFICATE-----\nCERT\n";
  private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.S3CR3TTOKEN.sig";

  @TempDir Path dir;

  @Test
  void anAdminsClientKeyGoesByFileNotByProperty() throws IOException {
    String yaml =
        kubeconfig(
            "    client-certificate-data: "
                + base64(CERT_PEM)
                + "\n    client-key-data: "
                + base64(KEY_PEM)
                + "\n");
    Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), yaml);

    Map<String, String> properties = ClientProperties.of(yaml, kubeconfig, this::write);

    assertThat(String.join("\n", properties.values()))
        .doesNotContain("S3CR3TKEY", base64(KEY_PEM), "client-key-data");
    assertThat(Path.of(properties.get("quarkus.kubernetes-client.client-key-file")))
        .hasContent(KEY_PEM.strip());
    assertThat(Path.of(properties.get("quarkus.kubernetes-client.client-cert-file")))
        .hasContent(CERT_PEM.strip());
    assertThat(properties)
        .containsEntry("quarkus.kubernetes-client.api-server-url", "https://127.0.0.1:6443/")
        .containsEntry("kubeconfig", kubeconfig.toString())
        .containsEntry(ClientProperties.APPLICATION_KUBECONFIG, kubeconfig.toString());
  }

  @Test
  void aServiceAccountsTokenGoesByTheKubeconfigFileNotByProperty() throws IOException {
    String yaml = kubeconfig("    token: " + TOKEN + "\n");
    Path kubeconfig = Files.writeString(dir.resolve("sa.kubeconfig"), yaml);

    Map<String, String> properties = ClientProperties.of(yaml, kubeconfig, this::write);

    assertThat(String.join("\n", properties.values())).doesNotContain("S3CR3TTOKEN");
    assertThat(properties.keySet()).doesNotContain("quarkus.kubernetes-client.token");
    assertThat(Path.of(properties.get("kubeconfig"))).content().contains(TOKEN);
  }

  private Path write(String name, String content) {
    try {
      return Files.writeString(dir.resolve(name), content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String kubeconfig(String user) {
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n"
        + "    server: https://127.0.0.1:6443\n"
        + "    certificate-authority-data: "
        + base64(CERT_PEM)
        + "\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\n"
        + "current-context: c\nusers:\n- name: u\n  user:\n"
        + user;
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
