package io.github.kubeharness.sample.guestbook;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Asks the operator's health endpoints, as the kubelet would. */
final class Probes {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Probes() {}

  /** {@code "<status> <body>"} of a GET, e.g. {@code "200 ok"}. */
  static String get(InetSocketAddress address, String path)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body().strip();
  }
}
