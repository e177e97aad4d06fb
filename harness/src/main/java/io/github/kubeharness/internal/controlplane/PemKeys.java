package io.github.kubeharness.internal.controlplane;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM a kubeconfig holds with the JDK alone: certificates, and private keys in the three
 * forms Kubernetes tools write (SEC1 "EC PRIVATE KEY", PKCS#1 "RSA PRIVATE KEY", PKCS#8 "PRIVATE
 * KEY"), for clients whose TLS is made in memory rather than through fabric8's key store.
 */
public final class PemKeys {

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
  private static final String EC_PUBLIC_KEY = "1.2.840.10045.2.1";
  private static final String RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
  private static final byte[] DER_NULL = {0x05, 0x00};

  private PemKeys() {}

  /** Every certificate in {@code pem}, in order (other blocks are passed over). */
  public static List<X509Certificate> certificates(String pem) throws CertificateException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<X509Certificate> certificates = new ArrayList<>();
    Matcher block = BLOCK.matcher(pem);
    while (block.find()) {
      if (block.group(1).equals("CERTIFICATE")) {
        byte[] der = Base64.getMimeDecoder().decode(block.group(2));
        certificates.add(
            (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
      }
    }
    return certificates;
  }

  /**
   * The first private key in {@code pem}, or empty when it is in none of the three forms (an
   * encrypted key, an EC key without its curve): the caller falls back to another reader.
   */
  public static Optional<PrivateKey> privateKey(String pem) {
    Matcher block = BLOCK.matcher(pem);
    while (block.find()) {
      byte[] der = Base64.getMimeDecoder().decode(block.group(2));
      try {
        switch (block.group(1)) {
          case "EC PRIVATE KEY":
            Optional<byte[]> curve = sec1CurveOid(der);
            return curve.isEmpty()
                ? Optional.empty()
                : Optional.of(wrapped("EC", EC_PUBLIC_KEY, curve.get(), der));
          case "RSA PRIVATE KEY":
            return Optional.of(wrapped("RSA", RSA_ENCRYPTION, DER_NULL, der));
          case "PRIVATE KEY":
            return pkcs8Key(der);
          default:
            // A certificate before the key, or something else: read on.
        }
      } catch (GeneralSecurityException | IllegalArgumentException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static Optional<PrivateKey> pkcs8Key(byte[] der) {
    for (String algorithm : List.of("EC", "RSA", "Ed25519")) {
      try {
        return Optional.of(
            KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der)));
      } catch (GeneralSecurityException e) {
        // Not this algorithm's key: try the next.
      }
    }
    return Optional.empty();
  }

  // The JDK reads keys only as PKCS#8, which wraps the algorithm-specific key with the
  // algorithm's identifier (RFC 5208).
  private static PrivateKey wrapped(String keyType, String oid, byte[] parameters, byte[] key)
      throws GeneralSecurityException {
    byte[] pkcs8 =
        Der.sequence(
            Der.integer(BigInteger.ZERO),
            Der.sequence(Der.oid(oid), parameters),
            Der.octetString(key));
    return KeyFactory.getInstance(keyType).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
  }

  // SEC1 (RFC 5915): SEQUENCE { version, privateKey OCTET STRING, [0] curve OID, [1] public key };
  // the curve goes into the PKCS#8 algorithm identifier.
  private static Optional<byte[]> sec1CurveOid(byte[] der) {
    int[] sequence = element(der, 0, 0x30);
    int at = sequence[0];
    int[] version = element(der, at, 0x02);
    int[] key = element(der, version[1], 0x04);
    if (key[1] >= sequence[1] || (der[key[1]] & 0xff) != 0xa0) {
      return Optional.empty();
    }
    int[] parameters = element(der, key[1], 0xa0);
    int[] oid = element(der, parameters[0], 0x06);
    return Optional.of(Arrays.copyOfRange(der, parameters[0], oid[1]));
  }

  /** The element with {@code tag} at {@code offset}: {start of its content, end of it}. */
  private static int[] element(byte[] der, int offset, int tag) {
    if (offset + 2 > der.length || (der[offset] & 0xff) != tag) {
      throw new IllegalArgumentException("not the DER expected at " + offset);
    }
    int length = der[offset + 1] & 0xff;
    int start = offset + 2;
    if (length >= 0x80) {
      int bytes = length & 0x7f;
      if (bytes > 3 || start + bytes > der.length) {
        throw new IllegalArgumentException("DER length cut short at " + offset);
      }
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (der[start + i] & 0xff);
      }
      start += bytes;
    }
    if (start + length > der.length) {
      throw new IllegalArgumentException("DER longer than its bytes at " + offset);
    }
    return new int[] {start, start + length};
  }
}
