package io.github.kubeharness.internal.controlplane;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

/**
 * A certificate authority that lives for one control plane run: it signs the apiserver's serving
 * certificate and the client certificates of the admin and of users added for RBAC tests.
 *
 * <p>Keys are ECDSA P-256: generating one takes about a millisecond, where RSA 2048 takes tens to
 * hundreds, and start-up time is the product here. Certificates are built with BouncyCastle and
 * signed through the JDK's own provider, so no security provider is registered globally.
 */
public final class TinyCa {

  private static final Duration VALIDITY = Duration.ofDays(7);
  private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

  private final X500Name name;
  private final KeyPair keyPair;
  private final X509Certificate certificate;

  private TinyCa(X500Name name, KeyPair keyPair, X509Certificate certificate) {
    this.name = name;
    this.keyPair = keyPair;
    this.certificate = certificate;
  }

  /** A new self-signed CA. */
  public static TinyCa create(String commonName) {
    KeyPair keys = newKeyPair();
    X500Name subject = name(commonName, List.of());
    try {
      X509v3CertificateBuilder builder = builder(subject, subject, keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      builder.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          new JcaX509ExtensionUtils().createSubjectKeyIdentifier(keys.getPublic()));
      return new TinyCa(subject, keys, sign(builder, keys));
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot create the control plane's CA: " + e, e);
    }
  }

  /** A serving certificate for the given IP addresses and DNS names. */
  public Issued issueServing(String commonName, List<String> ips, List<String> dnsNames) {
    List<GeneralName> sans = new ArrayList<>();
    ips.forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
    dnsNames.forEach(dns -> sans.add(new GeneralName(GeneralName.dNSName, dns)));
    return issue(
        name(commonName, List.of()),
        KeyPurposeId.id_kp_serverAuth,
        new GeneralNames(sans.toArray(GeneralName[]::new)));
  }

  /**
   * A client certificate: Kubernetes reads the user name from the common name and the groups from
   * the organizations.
   */
  public Issued issueClient(String user, List<String> groups) {
    return issue(name(user, groups), KeyPurposeId.id_kp_clientAuth, null);
  }

  /** The CA certificate in PEM. */
  public String certificatePem() {
    return pem(certificate);
  }

  public X509Certificate certificate() {
    return certificate;
  }

  private Issued issue(X500Name subject, KeyPurposeId purpose, GeneralNames sans) {
    KeyPair keys = newKeyPair();
    try {
      X509v3CertificateBuilder builder = builder(name, subject, keys);
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      if (sans != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, sans);
      }
      X509Certificate cert = sign(builder, keyPair);
      return new Issued(cert, keys);
    } catch (IOException | GeneralSecurityException e) {
      throw new KubeHarnessException("Cannot issue a certificate for " + subject + ": " + e, e);
    }
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(
        issuer,
        BigInteger.valueOf(SERIAL.incrementAndGet()),
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(VALIDITY)),
        subject,
        keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter()
          .getCertificate(
              builder.build(
                  new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static X500Name name(String commonName, List<String> organizations) {
    X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
    organizations.forEach(o -> builder.addRDN(BCStyle.O, o));
    builder.addRDN(BCStyle.CN, commonName);
    return builder.build();
  }

  /** A fresh ECDSA P-256 key pair. */
  public static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new KubeHarnessException("This JVM cannot generate EC P-256 keys: " + e, e);
    }
  }

  /** PEM of a certificate or public key. */
  public static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write PEM: " + e, e);
    }
    return out.toString();
  }

  /**
   * PEM of an EC private key in SEC1 form ("EC PRIVATE KEY") with its curve and public key. Not
   * PKCS#8: fabric8 picks its key parser from the PEM header and reads a PKCS#8 block as RSA. The
   * curve must be inside the SEC1 structure, or Go (the apiserver) cannot read the key.
   */
  public static String privateKeyPem(KeyPair keys) {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
    try {
      ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
      SubjectPublicKeyInfo publicKey =
          SubjectPublicKeyInfo.getInstance(keys.getPublic().getEncoded());
      ECPrivateKey sec1 =
          new ECPrivateKey(
              256,
              inner.getKey(),
              publicKey.getPublicKeyData(),
              info.getPrivateKeyAlgorithm().getParameters());
      StringWriter out = new StringWriter();
      try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
        writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
      }
      return out.toString();
    } catch (IOException e) {
      throw new KubeHarnessException("Cannot write an EC private key as PEM: " + e, e);
    }
  }

  /** A certificate and its key pair. */
  public record Issued(X509Certificate certificate, KeyPair keyPair) {
    public String certificatePem() {
      return pem(certificate);
    }

    public String privateKeyPem() {
      return TinyCa.privateKeyPem(keyPair);
    }
  }
}
