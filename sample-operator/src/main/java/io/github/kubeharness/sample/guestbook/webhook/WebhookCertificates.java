package io.github.kubeharness.sample.guestbook.webhook;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The webhook server's certificate without cert-manager: a CA and a serving certificate made on
 * first start and kept in a Secret of the operator's namespace, so every replica (and the next pod
 * of a rollout) serves the same one and the {@code caBundle} stays valid. A Secret whose
 * certificate lacks a name now needed, or expires within 30 days, is replaced.
 *
 * @param caPem the CA certificate (what becomes the configurations' caBundle)
 * @param certificate the serving certificate
 * @param key its private key
 */
public record WebhookCertificates(String caPem, X509Certificate certificate, PrivateKey key) {

  static final String CA = "ca.crt";
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";
  private static final Duration VALIDITY = Duration.ofDays(365);
  private static final Duration RENEW_BEFORE = Duration.ofDays(30);

  /**
   * The Secret's certificate when it covers {@code dnsNames} and {@code ips}, else a new one,
   * stored in the Secret (created, or replaced).
   */
  public static WebhookCertificates obtain(
      KubernetesClient client,
      String namespace,
      String secretName,
      List<String> dnsNames,
      List<String> ips) {
    Secret existing = client.secrets().inNamespace(namespace).withName(secretName).get();
    if (existing != null) {
      WebhookCertificates stored = read(existing);
      if (stored != null && stored.covers(dnsNames, ips)) {
        return stored;
      }
    }
    WebhookCertificates fresh = issue(dnsNames, ips);
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(secretName)
            .withNamespace(namespace)
            .addToLabels("app.kubernetes.io/name", "guestbook-operator")
            .endMetadata()
            .withType("kubernetes.io/tls")
            .addToData(CA, base64(fresh.caPem))
            .addToData(CERT, base64(pem(fresh.certificate)))
            .addToData(KEY, base64(pem(fresh.key)))
            .build();
    try {
      if (existing == null) {
        client.secrets().inNamespace(namespace).resource(secret).create();
      } else {
        secret.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        client.secrets().inNamespace(namespace).resource(secret).update();
      }
      return fresh;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        // Another replica stored one first: serve that one.
        return obtain(client, namespace, secretName, dnsNames, ips);
      }
      throw e;
    }
  }

  boolean covers(List<String> dnsNames, List<String> ips) {
    try {
      if (certificate.getNotAfter().toInstant().isBefore(Instant.now().plus(RENEW_BEFORE))) {
        return false;
      }
      Set<String> names = new HashSet<>();
      Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
      if (sans != null) {
        sans.forEach(san -> names.add(String.valueOf(san.get(1))));
      }
      return names.containsAll(dnsNames) && names.containsAll(ips);
    } catch (Exception e) {
      return false;
    }
  }

  private static WebhookCertificates read(Secret secret) {
    Map<String, String> data = secret.getData();
    if (data == null || !data.keySet().containsAll(List.of(CA, CERT, KEY))) {
      return null;
    }
    try {
      String caPem = decode(data.get(CA));
      X509Certificate cert;
      PrivateKey key;
      try (PEMParser certs = new PEMParser(new StringReader(decode(data.get(CERT))));
          PEMParser keys = new PEMParser(new StringReader(decode(data.get(KEY))))) {
        cert =
            new JcaX509CertificateConverter()
                .getCertificate((X509CertificateHolder) certs.readObject());
        // PKCS#8 ("PRIVATE KEY", as pem() writes it) reads back as the key alone; OpenSSL's
        // "EC PRIVATE KEY" (another tool's Secret) as a key pair.
        Object parsed = keys.readObject();
        key =
            new JcaPEMKeyConverter()
                .getPrivateKey(
                    parsed instanceof PEMKeyPair pair
                        ? pair.getPrivateKeyInfo()
                        : (PrivateKeyInfo) parsed);
      }
      return new WebhookCertificates(caPem, cert, key);
    } catch (Exception e) {
      return null; // unreadable: replaced by a new one
    }
  }

  static WebhookCertificates issue(List<String> dnsNames, List<String> ips) {
    try {
      KeyPair caKeys = keyPair();
      X500Name caName = new X500Name("CN=guestbook-operator-webhook-ca");
      Instant now = Instant.now().minus(Duration.ofMinutes(5));
      Date from = Date.from(now);
      Date until = Date.from(now.plus(VALIDITY));
      JcaX509v3CertificateBuilder ca =
          new JcaX509v3CertificateBuilder(
              caName, serial(), from, until, caName, caKeys.getPublic());
      ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      ca.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509Certificate caCert = sign(ca, caKeys.getPrivate());

      KeyPair keys = keyPair();
      JcaX509v3CertificateBuilder leaf =
          new JcaX509v3CertificateBuilder(
              caName,
              serial(),
              from,
              until,
              new X500Name("CN=" + (dnsNames.isEmpty() ? ips.get(0) : dnsNames.get(0))),
              keys.getPublic());
      List<GeneralName> sans = new ArrayList<>();
      dnsNames.forEach(n -> sans.add(new GeneralName(GeneralName.dNSName, n)));
      ips.forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
      leaf.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(sans.toArray(GeneralName[]::new)));
      leaf.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      leaf.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      leaf.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      return new WebhookCertificates(
          pem(caCert), sign(leaf, caKeys.getPrivate()), keys.getPrivate());
    } catch (Exception e) {
      throw new IllegalStateException("Cannot issue the webhook server's certificate: " + e, e);
    }
  }

  private static X509Certificate sign(JcaX509v3CertificateBuilder builder, PrivateKey signer)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
  }

  private static KeyPair keyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static BigInteger serial() {
    return new BigInteger(64, new SecureRandom());
  }

  /**
   * PEM of a certificate, or of a private key as PKCS#8: BouncyCastle would write the JDK's EC key
   * as OpenSSL's "EC PRIVATE KEY" without its curve, which no reader (read() included) can load.
   */
  static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      if (object instanceof PrivateKey key) {
        writer.writeObject(new JcaPKCS8Generator(key, null));
      } else {
        writer.writeObject(object);
      }
    } catch (Exception e) {
      throw new IllegalStateException("Cannot write PEM: " + e, e);
    }
    return out.toString();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
