package io.github.kubeharness.internal.reuse;

import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.process.PrivateFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;

/**
 * A kept control plane's CA, certificate and key, in its run directory ({@code kept-ca/}, owner
 * only): a JVM that attaches issues its own identities from it, as the JVM that started it did.
 */
final class KeptCa {

  private KeptCa() {}

  static void save(Path run, TinyCa ca) {
    Path dir = PrivateFiles.directory(run.resolve("kept-ca"));
    PrivateFiles.write(dir.resolve("ca.crt"), ca.certificatePem());
    PrivateFiles.write(
        dir.resolve("ca.key"),
        Base64.getEncoder().encodeToString(ca.keyPair().getPrivate().getEncoded())
            + "\n"
            + Base64.getEncoder().encodeToString(ca.keyPair().getPublic().getEncoded())
            + "\n");
  }

  static TinyCa load(Path run) throws IOException, GeneralSecurityException {
    Path dir = run.resolve("kept-ca");
    X509Certificate cert =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(
                    new ByteArrayInputStream(Files.readAllBytes(dir.resolve("ca.crt"))));
    List<String> keys = Files.readAllLines(dir.resolve("ca.key"));
    KeyFactory ec = KeyFactory.getInstance("EC");
    KeyPair pair =
        new KeyPair(
            ec.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(keys.get(1)))),
            ec.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(keys.get(0)))));
    return TinyCa.of(cert, pair);
  }
}
