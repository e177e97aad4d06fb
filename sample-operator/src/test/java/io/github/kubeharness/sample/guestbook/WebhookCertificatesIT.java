package io.github.kubeharness.sample.guestbook;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.TestNamespace;
import io.github.kubeharness.sample.guestbook.webhook.WebhookCertificates;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

/**
 * The webhook server's certificate kept in a Secret (README, The Guestbook: "reads the Secret ...
 * or makes a CA and a serving certificate"), against a real API server: made and stored on the
 * first start, served as stored by the next replica, rotated when it no longer covers the Service's
 * names or expires within 30 days, and one certificate for replicas starting at once.
 */
@ControllerTest
class WebhookCertificatesIT {

  private static final String SECRET = "guestbook-webhook-server-cert";

  KubernetesClient client;
  @TestNamespace String namespace;

  @Test
  void theFirstStartStoresOneAndTheNextReplicaServesTheSame() {
    WebhookCertificates first = obtain(names("guestbook-webhook-service"));

    Secret stored = secret();
    assertThat(stored.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(stored.getData()).containsKeys("ca.crt", "tls.crt", "tls.key");
    assertThat(decode(stored.getData().get("ca.crt"))).isEqualTo(first.caPem());
    assertThat(first.certificate().getNotAfter().toInstant())
        .isAfter(Instant.now().plus(Duration.ofDays(360)));

    WebhookCertificates next = obtain(names("guestbook-webhook-service"));
    assertThat(next.certificate()).isEqualTo(first.certificate());
    assertThat(next.caPem()).isEqualTo(first.caPem());
    assertThat(secret().getMetadata().getResourceVersion())
        .as("the Secret is left as it was")
        .isEqualTo(stored.getMetadata().getResourceVersion());
  }

  @Test
  void aCertificateThatNoLongerCoversTheServicesNamesIsReplaced() throws Exception {
    WebhookCertificates old = obtain(names("guestbook-webhook-service"));

    List<String> renamed = names("renamed-webhook-service");
    WebhookCertificates rotated = obtain(renamed);

    assertThat(rotated.certificate()).isNotEqualTo(old.certificate());
    assertThat(rotated.caPem()).isNotEqualTo(old.caPem());
    assertThat(dnsNames(rotated.certificate())).containsAll(renamed);
    assertThat(decode(secret().getData().get("ca.crt")))
        .as("the Secret holds the new CA")
        .isEqualTo(rotated.caPem());
  }

  @Test
  void aCertificateExpiringWithin30DaysIsReplaced() throws Exception {
    List<String> dnsNames = names("guestbook-webhook-service");
    client.resource(secretExpiringIn(Duration.ofDays(10), dnsNames)).create();

    WebhookCertificates rotated = obtain(dnsNames);

    assertThat(rotated.certificate().getNotAfter().toInstant())
        .isAfter(Instant.now().plus(Duration.ofDays(360)));
    assertThat(decode(secret().getData().get("tls.crt")))
        .as("the Secret holds the new certificate")
        .isEqualTo(pem(rotated.certificate()));
  }

  /**
   * Replicas starting together each find no Secret and make a certificate; one create wins, and
   * every other replica serves the winner's (the 409 of its own create sends it back to read).
   */
  @Test
  void replicasStartingAtOnceServeOneCertificate() throws Exception {
    int replicas = 4;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(replicas);
    try {
      List<CompletableFuture<WebhookCertificates>> started = new ArrayList<>();
      for (int i = 0; i < replicas; i++) {
        started.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                  return obtain(names("guestbook-webhook-service"));
                },
                pool));
      }
      go.countDown();
      String stored = decode(secret(started).getData().get("tls.crt"));
      for (CompletableFuture<WebhookCertificates> replica : started) {
        assertThat(pem(replica.join().certificate())).isEqualTo(stored);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private Secret secret(List<CompletableFuture<WebhookCertificates>> replicas) {
    CompletableFuture.allOf(replicas.toArray(CompletableFuture[]::new)).join();
    return secret();
  }

  private WebhookCertificates obtain(List<String> dnsNames) {
    return WebhookCertificates.obtain(client, namespace, SECRET, dnsNames, List.of());
  }

  private Secret secret() {
    return client.secrets().withName(SECRET).require();
  }

  private List<String> names(String service) {
    return List.of(
        service,
        service + "." + namespace,
        service + "." + namespace + ".svc",
        service + "." + namespace + ".svc.cluster.local");
  }

  private static List<String> dnsNames(X509Certificate certificate) throws Exception {
    return certificate.getSubjectAlternativeNames().stream()
        .map(san -> String.valueOf(san.get(1)))
        .toList();
  }

  /** A Secret as the operator writes it, whose certificate covers the names but expires soon. */
  private Secret secretExpiringIn(Duration left, List<String> dnsNames) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = generator.generateKeyPair();
    X500Name name = new X500Name("CN=" + dnsNames.get(0));
    Instant now = Instant.now().minus(Duration.ofMinutes(5));
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            name,
            BigInteger.ONE,
            Date.from(now),
            Date.from(now.plus(left)),
            name,
            keys.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            dnsNames.stream()
                .map(n -> new GeneralName(GeneralName.dNSName, n))
                .toArray(GeneralName[]::new)));
    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
    X509Certificate certificate =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    return new SecretBuilder()
        .withNewMetadata()
        .withName(SECRET)
        .endMetadata()
        .withType("kubernetes.io/tls")
        .addToData("ca.crt", encode(pem(certificate)))
        .addToData("tls.crt", encode(pem(certificate)))
        .addToData("tls.key", encode(pem(keys.getPrivate())))
        .build();
  }

  /** PEM as the operator writes it: a certificate, or a private key as PKCS#8. */
  private static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(
          object instanceof PrivateKey key ? new JcaPKCS8Generator(key, null) : object);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return out.toString();
  }

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
