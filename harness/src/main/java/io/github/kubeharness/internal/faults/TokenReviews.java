package io.github.kubeharness.internal.faults;

import io.github.kubeharness.internal.controlplane.TinyCa;
import io.github.kubeharness.internal.controlplane.TlsStores;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer tokens of callers of the {@link FaultProxy}, confirmed by kube-apiserver itself: a
 * TokenReview per token, made as {@value #REVIEWER} (a client certificate of the run's CA in {@code
 * system:masters}, held in memory only, as the harness's own admin). A token the API server accepts
 * is remembered for the life of the proxy (under its SHA-256, not the token itself), so that a
 * controller's requests cost one review in all; a token it refuses is not remembered, so that
 * strangers' guesses cannot fill the memory.
 */
final class TokenReviews {

  /** The user the reviews are made as (what the API server's audit log shows). */
  static final String REVIEWER = "kube-harness-fault-proxy-reviewer";

  private static final String PATH = "/apis/authentication.k8s.io/v1/tokenreviews";

  private final HttpClient reviewer;
  private final int apiServerPort;
  // SHA-256 of the token (hex) -> who the API server said it belongs to
  private final Map<String, Future<Caller>> accepted = new ConcurrentHashMap<>();

  private TokenReviews(HttpClient reviewer, int apiServerPort) {
    this.reviewer = reviewer;
    this.apiServerPort = apiServerPort;
  }

  /** Reviews made on {@code vertx} (closed with it) as {@value #REVIEWER}, issued by {@code ca}. */
  static TokenReviews of(Vertx vertx, TinyCa ca, int apiServerPort) {
    TinyCa.Issued reviewer = ca.issueClient(REVIEWER, List.of("system:masters"));
    HttpClient client =
        vertx.createHttpClient(
            new HttpClientOptions()
                .setSsl(true)
                .setTrustOptions(TrustOptions.wrap(TlsStores.trusting(ca.certificate())))
                .setKeyCertOptions(
                    KeyCertOptions.wrap(TlsStores.presenting(reviewer, ca.certificate()))));
    return new TokenReviews(client, apiServerPort);
  }

  /**
   * Who {@code token} belongs to, as the API server says; fails with a {@link CallerRefused} when
   * it accepts no such token or cannot be asked.
   */
  Future<Caller> review(String token, String impersonating) {
    String key = sha256(token);
    Future<Caller> known = accepted.get(key);
    if (known == null) {
      Promise<Caller> promise = Promise.promise();
      known = accepted.putIfAbsent(key, promise.future());
      if (known == null) {
        known = promise.future();
        ask(token)
            .onComplete(
                answer -> {
                  if (answer.failed()) {
                    accepted.remove(key);
                  }
                  promise.handle(answer);
                });
      }
    }
    return known.map(c -> new Caller(c.user(), c.uid(), c.groups(), impersonating));
  }

  private Future<Caller> ask(String token) {
    JsonObject review =
        new JsonObject()
            .put("apiVersion", "authentication.k8s.io/v1")
            .put("kind", "TokenReview")
            .put("spec", new JsonObject().put("token", token));
    RequestOptions options =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setHost("127.0.0.1")
            .setPort(apiServerPort)
            .setURI(PATH)
            .putHeader("Content-Type", "application/json")
            .putHeader("Accept", "application/json");
    return reviewer
        .request(options)
        .compose(request -> request.send(review.toBuffer()))
        .compose(response -> response.body().map(body -> read(response.statusCode(), body)))
        .recover(
            failure ->
                Future.failedFuture(
                    failure instanceof CallerRefused
                        ? failure
                        : new CallerRefused(
                            503,
                            "ServiceUnavailable",
                            "cannot confirm the bearer token: the API server did not answer"
                                + " its TokenReview ("
                                + failure.getMessage()
                                + ")")));
  }

  private static Caller read(int status, Buffer body) {
    if (status / 100 != 2) {
      throw new CallerRefused(
          503,
          "ServiceUnavailable",
          "cannot confirm the bearer token: the API server answered its TokenReview with "
              + status);
    }
    JsonObject answer = new JsonObject(body).getJsonObject("status", new JsonObject());
    JsonObject user = answer.getJsonObject("user", new JsonObject());
    String name = user.getString("username", "");
    if (!answer.getBoolean("authenticated", false) || name.isEmpty()) {
      throw new CallerRefused(
          401,
          "Unauthorized",
          "the API server does not accept the bearer token (use a token of this cluster, such as"
              + " serviceAccountKubeconfig's, or a client certificate of its CA)");
    }
    JsonArray groups = user.getJsonArray("groups", new JsonArray());
    List<String> names = groups.stream().map(String::valueOf).toList();
    return new Caller(name, user.getString("uid", ""), names, "");
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
