package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.github.kubeharness.SocketProbe.StrangerCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The credentials of a census: the stranger's self-signed client certificate (made with {@code
 * openssl}, naming itself {@code kubernetes-admin} of {@code system:masters}, as an intruder
 * would), in files the second user can read; and the run's own client certificate, from its
 * kubeconfig, in owner-only files for the positive controls.
 */
public final class CensusCredentials {

  private CensusCredentials() {}

  /** A self-signed certificate and key under a new world-readable directory in /tmp. */
  public static StrangerCertificate strangerCertificate() throws IOException, InterruptedException {
    Path dir =
        Files.createTempDirectory(
            Path.of("/tmp"),
            "kh-census-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Path certificate = dir.resolve("self-signed.crt");
    Path key = dir.resolve("self-signed.key");
    Process openssl =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/O=system:masters/CN=kubernetes-admin",
                "-addext",
                "extendedKeyUsage=clientAuth",
                "-keyout",
                key.toString(),
                "-out",
                certificate.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(openssl.waitFor(30, TimeUnit.SECONDS) && openssl.exitValue() == 0)
        .as("openssl made a self-signed certificate: %s", output)
        .isTrue();
    // A bogus identity, no secret: the second user must be able to present it.
    for (Path file : List.of(certificate, key)) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }
    return new StrangerCertificate(certificate, key);
  }

  /** Removes what {@link #strangerCertificate} made. */
  public static void remove(StrangerCertificate certificate) throws IOException {
    Files.deleteIfExists(certificate.certificate());
    Files.deleteIfExists(certificate.key());
    Files.deleteIfExists(certificate.certificate().getParent());
  }

  /**
   * curl's arguments presenting the kubeconfig's client certificate, written as owner-only files
   * under {@code ownerOnlyDirectory}.
   */
  public static List<String> ownClientCertificate(String kubeconfig, Path ownerOnlyDirectory)
      throws IOException {
    Config config = Config.fromKubeconfig(kubeconfig);
    Path certificate = ownerOnlyDirectory.resolve("own.crt");
    Path key = ownerOnlyDirectory.resolve("own.key");
    Files.write(certificate, Base64.getDecoder().decode(config.getClientCertData()));
    Files.write(key, Base64.getDecoder().decode(config.getClientKeyData()));
    for (Path file : List.of(certificate, key)) {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
    return List.of("--cert", certificate.toString(), "--key", key.toString());
  }
}
