package io.github.kubeharness.internal.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The private keys kubeconfigs hold, read by the JDK alone; what it cannot read is left alone. */
class PemKeysTest {

  private final TinyCa ca = TinyCa.create("kube-harness-ca");

  @Test
  void readsTheSec1EcKeysKubeHarnessWrites() throws Exception {
    TinyCa.Issued issued = ca.issueClient("alice", List.of());
    PrivateKey key = PemKeys.privateKey(issued.privateKeyPem()).orElseThrow();
    assertSignsFor(key, issued.certificate().getPublicKey(), "SHA256withECDSA");
  }

  @Test
  void readsPkcs8EcAndRsaKeysAndRsaPkcs1Keys() throws Exception {
    KeyPair ec = TinyCa.newKeyPair();
    assertSignsFor(
        PemKeys.privateKey(pem("PRIVATE KEY", ec.getPrivate().getEncoded())).orElseThrow(),
        ec.getPublic(),
        "SHA256withECDSA");

    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair rsa = generator.generateKeyPair();
    byte[] pkcs8 = rsa.getPrivate().getEncoded();
    assertSignsFor(
        PemKeys.privateKey(pem("PRIVATE KEY", pkcs8)).orElseThrow(),
        rsa.getPublic(),
        "SHA256withRSA");
    // PKCS#8 of a 2048-bit RSA key: 26 bytes of header (sequence, version, rsaEncryption, the
    // octet string's tag and length), then the PKCS#1 key kind and kubeadm write.
    assertThat(Arrays.copyOfRange(pkcs8, 7, 22))
        .isEqualTo(Base64.getDecoder().decode("MA0GCSqGSIb3DQEBAQUA"));
    byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
    assertSignsFor(
        PemKeys.privateKey(pem("RSA PRIVATE KEY", pkcs1)).orElseThrow(),
        rsa.getPublic(),
        "SHA256withRSA");
  }

  @Test
  void findsTheKeyAfterACertificateInTheSamePem() throws Exception {
    TinyCa.Issued issued = ca.issueClient("alice", List.of());
    String both = issued.certificatePem() + issued.privateKeyPem();
    assertThat(PemKeys.privateKey(both)).isPresent();
    assertThat(PemKeys.certificates(both)).containsExactly(issued.certificate());
  }

  @Test
  void leavesAloneWhatItCannotRead() {
    // An encrypted key, a SEC1 key without its curve, a broken one, no key at all.
    assertThat(PemKeys.privateKey(pem("ENCRYPTED PRIVATE KEY", new byte[] {0x30, 0x00}))).isEmpty();
    byte[] sec1WithoutCurve =
        Der.sequence(Der.integer(java.math.BigInteger.ONE), Der.octetString(new byte[32]));
    assertThat(PemKeys.privateKey(pem("EC PRIVATE KEY", sec1WithoutCurve))).isEmpty();
    assertThat(PemKeys.privateKey(pem("EC PRIVATE KEY", new byte[] {0x30, 0x7f, 0x02}))).isEmpty();
    assertThat(PemKeys.privateKey(pem("EC PRIVATE KEY", new byte[] {0x30, (byte) 0x84, 0x01})))
        .isEmpty();
    assertThat(PemKeys.privateKey(pem("PRIVATE KEY", new byte[] {0x30, 0x03, 0x02, 0x01, 0x00})))
        .isEmpty();
    assertThat(PemKeys.privateKey(ca.certificatePem())).isEmpty();
  }

  private static void assertSignsFor(PrivateKey key, PublicKey publicKey, String algorithm)
      throws Exception {
    Signature signer = Signature.getInstance(algorithm);
    signer.initSign(key);
    signer.update(new byte[] {1, 2, 3});
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance(algorithm);
    verifier.initVerify(publicKey);
    verifier.update(new byte[] {1, 2, 3});
    assertThat(verifier.verify(signature)).isTrue();
  }

  private static String pem(String type, byte[] der) {
    return TinyCa.pem(type, der);
  }
}
