package io.github.kubeharness.internal.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.CertUtils;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The certificates and keys {@link TinyCa} encodes by hand, read back by the JDK and by fabric8 as
 * the apiserver's clients read them (the apiserver itself reads them in every integration test).
 */
class TinyCaTest {

  private final TinyCa ca = TinyCa.create("kube-harness-ca");

  @Test
  void theCaIsASelfSignedCertificateAuthority() throws Exception {
    X509Certificate cert = reparsed(ca.certificatePem());
    cert.verify(cert.getPublicKey());
    assertThat(cert.getSubjectX500Principal().getName()).isEqualTo("CN=kube-harness-ca");
    assertThat(cert.getBasicConstraints()).isEqualTo(Integer.MAX_VALUE);
    // keyCertSign and cRLSign only (the JDK reports the 9 named bits)
    assertThat(cert.getKeyUsage())
        .containsExactly(false, false, false, false, false, true, true, false, false);
    assertThat(cert.getExtensionValue("2.5.29.14")).isNotNull();
  }

  @Test
  void itsValidityIsAnHourBackToSevenDaysAheadInUtcAndItsPemIsWhatTheJdkParses() throws Exception {
    java.time.Instant before = java.time.Instant.now();
    TinyCa.Issued issued = ca.issueClient("someone", List.of());
    X509Certificate cert = reparsed(issued.certificatePem());
    // UTCTime is written by hand (Der.utcTime): every field must land where the JDK reads it.
    assertThat(cert.getNotBefore().toInstant())
        .isBetween(
            before.minus(java.time.Duration.ofHours(1)).minusSeconds(2),
            before.minus(java.time.Duration.ofHours(1)).plusSeconds(2));
    assertThat(cert.getNotAfter().toInstant())
        .isBetween(
            before.plus(java.time.Duration.ofDays(7)).minusSeconds(2),
            before.plus(java.time.Duration.ofDays(7)).plusSeconds(2));
    // The certificate parsed on demand is the one the PEM files carry.
    assertThat(issued.certificate().getEncoded()).isEqualTo(cert.getEncoded());
    assertThat(ca.certificate().getEncoded()).isEqualTo(reparsed(ca.certificatePem()).getEncoded());
  }

  @Test
  void aServingCertificateNamesItsAddressesAndIsSignedByTheCa() throws Exception {
    X509Certificate cert =
        reparsed(
            ca.issueServing("kube-apiserver", List.of("127.0.0.1", "::1"), List.of("localhost"))
                .certificatePem());
    cert.verify(ca.certificate().getPublicKey());
    assertThat(cert.getIssuerX500Principal()).isEqualTo(ca.certificate().getSubjectX500Principal());
    assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
    assertThat(cert.getSubjectAlternativeNames())
        .extracting(san -> san.get(1).toString())
        .containsExactly("127.0.0.1", "0:0:0:0:0:0:0:1", "localhost");
    cert.checkValidity();
  }

  @Test
  void aClientCertificateCarriesUserAndGroupsAndItsKeyReadsBackInFabric8() throws Exception {
    TinyCa.Issued issued = ca.issueClient("alice", List.of("team-a", "system:masters"));
    X509Certificate cert = reparsed(issued.certificatePem());
    assertThat(cert.getSubjectX500Principal().getName())
        .isEqualTo("CN=alice,O=system:masters,O=team-a");
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");

    // fabric8 reads the SEC1 "EC PRIVATE KEY" PEM itself; the key must sign what the cert verifies.
    KeyStore store =
        CertUtils.createKeyStore(
            new ByteArrayInputStream(issued.certificatePem().getBytes(StandardCharsets.UTF_8)),
            new ByteArrayInputStream(issued.privateKeyPem().getBytes(StandardCharsets.UTF_8)),
            "EC",
            "pw".toCharArray(),
            null,
            null);
    PrivateKey key = (PrivateKey) store.getKey(store.aliases().nextElement(), "pw".toCharArray());
    Signature signer = Signature.getInstance("SHA256withECDSA");
    signer.initSign(key);
    signer.update(new byte[] {1, 2, 3});
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA256withECDSA");
    verifier.initVerify(cert.getPublicKey());
    verifier.update(new byte[] {1, 2, 3});
    assertThat(verifier.verify(signature)).isTrue();
  }

  @Test
  void kubeconfigsReadBackInFabric8() {
    TinyCa.Issued issued = ca.issueClient("alice", List.of());
    Config config =
        Config.fromKubeconfig(
            Kubeconfig.forClientCertificate(
                "https://127.0.0.1:6443",
                ca.certificatePem(),
                issued.certificatePem(),
                issued.privateKeyPem()));
    assertThat(config.getMasterUrl()).startsWith("https://127.0.0.1:6443");
    assertThat(decoded(config.getClientCertData())).isEqualTo(issued.certificatePem());
    assertThat(decoded(config.getCaCertData())).isEqualTo(ca.certificatePem());
    assertThat(config.getNamespace()).isEqualTo("default");

    Config token =
        Config.fromKubeconfig(Kubeconfig.forToken("https://127.0.0.1:1", null, "ey.J-w_x"));
    assertThat(token.getAutoOAuthToken()).isEqualTo("ey.J-w_x");
  }

  private static X509Certificate reparsed(String pem) throws Exception {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static String decoded(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
