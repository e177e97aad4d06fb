package io.github.kubeharness.sample.guestbook.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's webhook endpoint (kubebuilder's port 9443): HTTPS with {@link
 * WebhookCertificates}, serving {@link GuestbookAdmission}'s two paths and {@link
 * GuestbookConversion}'s.
 */
public final class GuestbookWebhookServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(GuestbookWebhookServer.class);

  private final HttpsServer server;
  private final ExecutorService executor;

  private GuestbookWebhookServer(HttpsServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static GuestbookWebhookServer start(
      InetSocketAddress address, WebhookCertificates certificates) {
    ExecutorService executor =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "guestbook-webhook");
              t.setDaemon(true);
              return t;
            });
    try {
      HttpsServer server = HttpsServer.create(address, 64);
      server.setHttpsConfigurator(new HttpsConfigurator(tls(certificates)));
      server.setExecutor(executor);
      server.createContext(
          GuestbookAdmission.DEFAULTING_PATH,
          e -> serve(e, AdmissionReview.class, GuestbookAdmission::recordCreator));
      server.createContext(
          GuestbookAdmission.VALIDATING_PATH,
          e -> serve(e, AdmissionReview.class, GuestbookAdmission::limitScaleDown));
      server.createContext(
          GuestbookConversion.PATH,
          e -> serve(e, ConversionReview.class, GuestbookConversion::convert));
      server.start();
      LOG.info("Webhook server listening on {}", server.getAddress());
      return new GuestbookWebhookServer(server, executor);
    } catch (Exception e) {
      executor.shutdownNow();
      throw new IllegalStateException(
          "Cannot serve webhooks on " + address + ": " + e.getMessage(), e);
    }
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  private static <T> void serve(HttpExchange exchange, Class<T> type, UnaryOperator<T> handler)
      throws IOException {
    byte[] answer;
    int status;
    try (InputStream in = exchange.getRequestBody()) {
      T review = Serialization.jsonMapper().readValue(in, type);
      answer = Serialization.jsonMapper().writeValueAsBytes(handler.apply(review));
      status = 200;
    } catch (Exception e) {
      LOG.error("Webhook {} failed", exchange.getRequestURI().getPath(), e);
      answer = ("{\"message\":\"" + e.getClass().getSimpleName() + "\"}").getBytes();
      status = 500;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, answer.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(answer);
    }
  }

  private static SSLContext tls(WebhookCertificates certificates) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    char[] password = "webhook".toCharArray();
    store.setKeyEntry(
        "webhook", certificates.key(), password, new Certificate[] {certificates.certificate()});
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store, password);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    return context;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
