package io.github.kubeharness.internal.webhooks;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * A request's body read into memory up to a limit, so that no caller can make the webhook server
 * hold more than that for one request: any local process can reach its port.
 */
final class BoundedBody {

  private BoundedBody() {}

  /**
   * The request's body, or empty if it is longer than {@code limit} bytes: as its Content-Length
   * says (nothing is read then), or as read (at most {@code limit + 1} bytes are).
   */
  static Optional<byte[]> read(HttpExchange exchange, int limit) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null && declaredLength(declared) > limit) {
      return Optional.empty();
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(limit + 1);
      return body.length > limit ? Optional.empty() : Optional.of(body);
    }
  }

  // The JDK's server has already refused a Content-Length that is not a number; a value too large
  // for a long is too large here as well.
  private static long declaredLength(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
