package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A certificate authority that lives for one control plane run: it signs the apiserver's serving
 * certificate and the client certificates of the admin and of users added for RBAC tests.
 *
 * <p>Keys are ECDSA P-256: generating one takes about a millisecond, where RSA 2048 takes tens to
 * hundreds, and start-up time is the product here. Certificates are encoded by {@link Der} and
 * signed by the JDK's own provider: no security library to load, no provider registered globally.
 *
 * <p>A certificate is kept as the DER it was signed as and parsed into the JDK's {@link
 * X509Certificate} only when a TLS context asks for it: the files kube-apiserver and etcd read are
 * PEM of that DER, and in a fresh JVM the JDK's X.509 parser is a few hundred classes that a start
 * would otherwise load before it can launch etcd (the TLS contexts are built while the processes
 * boot).
 */
public final class TinyCa {

  private static final Duration VALIDITY = Duration.ofDays(7);
  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String SECP256R1 = "1.2.840.10045.3.1.7";
  private static final String COMMON_NAME = "2.5.4.3";
  private static final String ORGANIZATION = "2.5.4.10";
  private static final String SUBJECT_KEY_IDENTIFIER = "2.5.29.14";
  private static final String KEY_USAGE = "2.5.29.15";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final String BASIC_CONSTRAINTS = "2.5.29.19";
  private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

  // Key usage bits as DER bit strings: keyCertSign (5) + cRLSign (6); digitalSignature (0) +
  // keyEncipherment (2). The second argument is the unused trailing bits of the last byte.
  private static final byte[] CA_KEY_USAGE = Der.bitString(new byte[] {0x06}, 1);
  private static final byte[] LEAF_KEY_USAGE = Der.bitString(new byte[] {(byte) 0xa0}, 5);

  private final byte[] name;
  private final KeyPair keyPair;
  private final Parsed certificate;

  private TinyCa(byte[] name, KeyPair keyPair, Parsed certificate) {
    this.name = name;
    this.keyPair = keyPair;
    this.certificate = certificate;
  }

  /** A new self-signed CA. */
  public static TinyCa create(String commonName) {
    KeyPair keys = newKeyPair();
    byte[] subject = name(commonName, List.of());
    try {
      byte[] extensions =
          Der.concat(
              extension(BASIC_CONSTRAINTS, true, Der.sequence(Der.bool(true))),
              extension(KEY_USAGE, true, CA_KEY_USAGE),
              extension(SUBJECT_KEY_IDENTIFIER, false, Der.octetString(keyId(keys.getPublic()))));
      return new TinyCa(
          subject, keys, new Parsed(sign(subject, subject, keys.getPublic(), extensions, keys)));
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot create the control plane's CA: " + e, e);
    }
  }

  /** The CA of an earlier run, from its certificate and key (a kept control plane's). */
  public static TinyCa of(X509Certificate certificate, KeyPair keyPair) {
    return new TinyCa(
        certificate.getSubjectX500Principal().getEncoded(), keyPair, new Parsed(certificate));
  }

  /** The CA's keys, to keep it for another JVM (kubeharness.reuse). */
  public KeyPair keyPair() {
    return keyPair;
  }

  /** A serving certificate for the given IP addresses and DNS names. */
  public Issued issueServing(String commonName, List<String> ips, List<String> dnsNames) {
    return issue(name(commonName, List.of()), List.of(SERVER_AUTH), subjectAltNames(ips, dnsNames));
  }

  /**
   * A certificate that serves and also authenticates as a client, for the given IP addresses and
   * DNS names: an etcd member's, which its peers would present both ways.
   */
  Issued issuePeer(String commonName, List<String> ips, List<String> dnsNames) {
    return issue(
        name(commonName, List.of()),
        List.of(SERVER_AUTH, CLIENT_AUTH),
        subjectAltNames(ips, dnsNames));
  }

  /**
   * A client certificate: Kubernetes reads the user name from the common name and the groups from
   * the organizations.
   */
  public Issued issueClient(String user, List<String> groups) {
    return issue(name(user, groups), List.of(CLIENT_AUTH), null);
  }

  private static byte[] subjectAltNames(List<String> ips, List<String> dnsNames) {
    List<byte[]> sans = new ArrayList<>();
    ips.forEach(ip -> sans.add(Der.implicit(7, ipAddress(ip))));
    dnsNames.forEach(dns -> sans.add(Der.implicit(2, dns.getBytes(StandardCharsets.US_ASCII))));
    return Der.sequence(sans.toArray(byte[][]::new));
  }

  /** The CA certificate in PEM. */
  public String certificatePem() {
    return pem("CERTIFICATE", certificate.der());
  }

  public X509Certificate certificate() {
    return certificate.get();
  }

  private Issued issue(byte[] subject, List<String> purposes, byte[] subjectAltNames) {
    KeyPair keys = newKeyPair();
    try {
      byte[] extensions =
          Der.concat(
              extension(BASIC_CONSTRAINTS, true, Der.sequence()),
              extension(KEY_USAGE, true, LEAF_KEY_USAGE),
              extension(
                  EXTENDED_KEY_USAGE,
                  false,
                  Der.sequence(purposes.stream().map(Der::oid).toArray(byte[][]::new))),
              subjectAltNames == null
                  ? new byte[0]
                  : extension(SUBJECT_ALT_NAME, false, subjectAltNames));
      return new Issued(
          new Parsed(sign(name, subject, keys.getPublic(), extensions, keyPair)), keys);
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot issue a certificate: " + e, e);
    }
  }

  /**
   * The certificate (X.509 v3, RFC 5280 section 4.1) of {@code subjectKey}, signed by signer, in
   * DER.
   */
  private static byte[] sign(
      byte[] issuer, byte[] subject, PublicKey subjectKey, byte[] extensions, KeyPair signer)
      throws GeneralSecurityException {
    Instant now = Instant.now();
    byte[] algorithm = Der.sequence(Der.oid(ECDSA_WITH_SHA256));
    byte[] tbs =
        Der.sequence(
            Der.explicit(0, Der.integer(BigInteger.TWO)),
            Der.integer(BigInteger.valueOf(SERIAL.incrementAndGet())),
            algorithm,
            issuer,
            Der.sequence(
                Der.utcTime(now.minus(Duration.ofHours(1))), Der.utcTime(now.plus(VALIDITY))),
            subject,
            subjectKey.getEncoded(),
            Der.explicit(3, Der.sequence(extensions)));
    Signature signature = Signature.getInstance("SHA256withECDSA");
    signature.initSign(signer.getPrivate());
    signature.update(tbs);
    return Der.sequence(tbs, algorithm, Der.bitString(signature.sign()));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical
        ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
        : Der.sequence(Der.oid(oid), Der.octetString(value));
  }

  /** Organizations first, then the common name, each its own RDN. */
  private static byte[] name(String commonName, List<String> organizations) {
    List<byte[]> rdns = new ArrayList<>();
    organizations.forEach(o -> rdns.add(rdn(ORGANIZATION, o)));
    rdns.add(rdn(COMMON_NAME, commonName));
    return Der.sequence(rdns.toArray(byte[][]::new));
  }

  private static byte[] rdn(String type, String value) {
    return Der.set(Der.sequence(Der.oid(type), Der.utf8(value)));
  }

  // RFC 5280 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits.
  private static byte[] keyId(PublicKey key) throws GeneralSecurityException {
    return MessageDigest.getInstance("SHA-1").digest(uncompressedPoint((ECPublicKey) key));
  }

  private static byte[] ipAddress(String ip) {
    try {
      return InetAddress.getByName(ip).getAddress(); // a literal: no lookup
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Not an IP address: " + ip, e);
    }
  }

  /** A fresh ECDSA P-256 key pair. */
  static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("This JVM cannot generate EC P-256 keys: " + e, e);
    }
  }

  /** PEM of a certificate or public key. */
  static String pem(Object object) {
    if (object instanceof Certificate certificate) {
      try {
        return pem("CERTIFICATE", certificate.getEncoded());
      } catch (CertificateEncodingException e) {
        throw new KubeHarnessException("Cannot write PEM: " + e, e);
      }
    }
    if (object instanceof PublicKey key) {
      return pem("PUBLIC KEY", key.getEncoded());
    }
    throw new IllegalArgumentException("No PEM form for " + object.getClass());
  }

  /**
   * PEM of an EC private key in SEC1 form ("EC PRIVATE KEY", RFC 5915) with its curve and public
   * key. Not PKCS#8: fabric8 picks its key parser from the PEM header and reads a PKCS#8 block as
   * RSA. The curve must be inside the SEC1 structure, or Go (the apiserver) cannot read the key.
   */
  static String privateKeyPem(KeyPair keys) {
    byte[] sec1 =
        Der.sequence(
            Der.integer(BigInteger.ONE),
            Der.octetString(fixedLength(((ECPrivateKey) keys.getPrivate()).getS(), 32)),
            Der.explicit(0, Der.oid(SECP256R1)),
            Der.explicit(1, Der.bitString(uncompressedPoint((ECPublicKey) keys.getPublic()))));
    return pem("EC PRIVATE KEY", sec1);
  }

  private static byte[] uncompressedPoint(ECPublicKey key) {
    return Der.concat(
        new byte[] {0x04},
        fixedLength(key.getW().getAffineX(), 32),
        fixedLength(key.getW().getAffineY(), 32));
  }

  // An unsigned big-endian integer of exactly `length` bytes (BigInteger adds a sign byte or drops
  // leading zeros).
  private static byte[] fixedLength(BigInteger value, int length) {
    byte[] bytes = value.toByteArray();
    if (bytes.length > length) {
      return Arrays.copyOfRange(bytes, bytes.length - length, bytes.length);
    }
    byte[] padded = new byte[length];
    System.arraycopy(bytes, 0, padded, length - bytes.length, bytes.length);
    return padded;
  }

  /** PEM of DER bytes under a type ("CERTIFICATE", "EC PRIVATE KEY", ...). */
  static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  /** A certificate and its key pair. */
  public static final class Issued {
    private final Parsed certificate;
    private final KeyPair keyPair;

    private Issued(Parsed certificate, KeyPair keyPair) {
      this.certificate = certificate;
      this.keyPair = keyPair;
    }

    public X509Certificate certificate() {
      return certificate.get();
    }

    public KeyPair keyPair() {
      return keyPair;
    }

    public String certificatePem() {
      return pem("CERTIFICATE", certificate.der());
    }

    public String privateKeyPem() {
      return TinyCa.privateKeyPem(keyPair);
    }
  }

  /** A certificate's DER, parsed by the JDK once, on first use. */
  private static final class Parsed {
    private final byte[] der;
    private volatile X509Certificate parsed;

    Parsed(byte[] der) {
      this.der = der;
    }

    Parsed(X509Certificate certificate) {
      try {
        this.der = certificate.getEncoded();
      } catch (CertificateEncodingException e) {
        throw new KubeHarnessException("Cannot encode the certificate " + certificate, e);
      }
      this.parsed = certificate;
    }

    byte[] der() {
      return der;
    }

    X509Certificate get() {
      X509Certificate certificate = parsed;
      if (certificate == null) {
        try {
          certificate =
              (X509Certificate)
                  CertificateFactory.getInstance("X.509")
                      .generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException e) {
          // Our own encoder wrote it: a bug here, not the user's input.
          throw new KubeHarnessException("The JDK cannot read a certificate kube-harness made", e);
        }
        parsed = certificate;
      }
      return certificate;
    }
  }
}
