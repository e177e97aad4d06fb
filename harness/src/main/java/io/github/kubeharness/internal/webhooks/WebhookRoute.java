package io.github.kubeharness.internal.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponse;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionResponse;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.kubeharness.webhooks.AdmissionHandler;
import io.github.kubeharness.webhooks.ConversionHandler;
import io.github.kubeharness.webhooks.RawWebhookHandler;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One served path: how a request body becomes a response, and what the log says of both. A handler
 * that throws is answered the way controller-runtime answers a handler's error (an admission denied
 * with code 500, a failed conversion), so the test sees the message in the API server's answer.
 */
public abstract class WebhookRoute {

  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private final String displayPath;

  private WebhookRoute(String displayPath) {
    this.displayPath = displayPath;
  }

  /** The path as the manifests name it, for the log. */
  String displayPath() {
    return displayPath;
  }

  /** kube-harness's own readiness probe: not logged. */
  boolean probe() {
    return false;
  }

  abstract Answer answer(String body);

  /**
   * What a path answers.
   *
   * @param status the HTTP status
   * @param body the response body
   * @param request the request, described for the log
   * @param outcome the answer, described for the log
   * @param error the handler's exception with its stack trace, or a problem with its answer
   */
  record Answer(int status, String body, String request, String outcome, Optional<String> error) {
    static Answer notFound(String path, Collection<String> served) {
      String message =
          "kube-harness serves no webhook at "
              + path
              + " (served now: "
              + new TreeSet<>(served)
              + "); the test class that registered it has ended";
      return new Answer(
          404, "{\"message\":" + quote(message) + "}", "-", "404", Optional.of(message));
    }
  }

  public static WebhookRoute admission(String path, AdmissionHandler handler) {
    return new WebhookRoute(path) {
      @Override
      Answer answer(String body) {
        AdmissionReview review;
        try {
          review = JSON.readValue(body, AdmissionReview.class);
        } catch (Exception e) {
          return unreadable(body, e);
        }
        String request = Describe.admissionRequest(review);
        String uid = review.getRequest() == null ? null : review.getRequest().getUid();
        AdmissionReview answer;
        try {
          answer = handler.handle(review);
          if (answer == null || answer.getResponse() == null) {
            throw new IllegalStateException("the handler returned no AdmissionReview response");
          }
        } catch (Exception | LinkageError e) {
          String message = "webhook " + path + " failed: " + e;
          AdmissionReview failed = new AdmissionReview();
          failed.setResponse(new AdmissionResponse());
          failed.getResponse().setUid(uid);
          failed.getResponse().setAllowed(false);
          // 400, not 500: fabric8 clients retry a 5xx up to ten times with back-off, which would
          // turn a handler's bug into half a minute of retries before the test sees it.
          failed
              .getResponse()
              .setStatus(new StatusBuilder().withCode(400).withMessage(message).build());
          return new Answer(
              200,
              json(envelope(failed)),
              request,
              "denied (400): " + message,
              Optional.of(trace(e)));
        }
        if (answer.getResponse().getUid() == null) {
          answer.getResponse().setUid(uid);
        }
        return new Answer(
            200,
            json(envelope(answer)),
            request,
            Describe.admissionOutcome(answer),
            Optional.empty());
      }
    };
  }

  public static WebhookRoute conversion(String path, ConversionHandler handler) {
    return new WebhookRoute(path) {
      @Override
      Answer answer(String body) {
        ConversionReview review;
        try {
          review = JSON.readValue(body, ConversionReview.class);
        } catch (Exception e) {
          return unreadable(body, e);
        }
        String request = Describe.conversionRequest(review);
        String uid = review.getRequest() == null ? null : review.getRequest().getUid();
        ConversionReview answer;
        try {
          answer = handler.handle(review);
          if (answer == null || answer.getResponse() == null) {
            throw new IllegalStateException("the handler returned no ConversionReview response");
          }
        } catch (Exception | LinkageError e) {
          String message = "conversion webhook " + path + " failed: " + e;
          ConversionReview failed = new ConversionReview();
          failed.setResponse(new ConversionResponse());
          failed.getResponse().setUid(uid);
          failed.getResponse().setConvertedObjects(List.of());
          failed
              .getResponse()
              .setResult(new StatusBuilder().withStatus("Failure").withMessage(message).build());
          return new Answer(
              200, json(envelope(failed)), request, "failed: " + message, Optional.of(trace(e)));
        }
        if (answer.getResponse().getUid() == null) {
          answer.getResponse().setUid(uid);
        }
        return new Answer(
            200,
            json(envelope(answer)),
            request,
            Describe.conversionOutcome(answer),
            Optional.empty());
      }
    };
  }

  public static WebhookRoute raw(String path, RawWebhookHandler handler) {
    return new WebhookRoute(path) {
      @Override
      Answer answer(String body) {
        String request = Describe.anyRequest(body);
        String answer;
        try {
          answer = handler.handle(body);
        } catch (Exception | LinkageError e) {
          String message = "webhook " + path + " failed: " + e;
          return new Answer(
              500, "{\"message\":" + quote(message) + "}", request, "500", Optional.of(trace(e)));
        }
        String text = answer == null ? "" : answer;
        try {
          JsonNode node = JSON.readTree(text);
          if (node == null) {
            throw new IllegalArgumentException("empty body");
          }
          return new Answer(200, text, request, Describe.anyOutcome(node), Optional.empty());
        } catch (Exception e) {
          return new Answer(
              200,
              text,
              request,
              "answered " + text.length() + " characters that are not JSON",
              Optional.of("the answer is not JSON (" + e.getMessage() + "): " + abbreviate(text)));
        }
      }
    };
  }

  /** Answers allowed and counts the call: proof the API server loaded a configuration. */
  static WebhookRoute probe(String path, Runnable called) {
    return new WebhookRoute(path) {
      @Override
      boolean probe() {
        return true;
      }

      @Override
      Answer answer(String body) {
        called.run();
        String uid = "";
        try {
          uid = JSON.readTree(body).path("request").path("uid").asText("");
        } catch (Exception e) {
          // answered anyway: the call itself is the proof
        }
        String review =
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                + "\"response\":{\"uid\":"
                + quote(uid)
                + ",\"allowed\":true}}";
        return new Answer(200, review, "probe", "allowed", Optional.empty());
      }
    };
  }

  private static Answer unreadable(String body, Exception e) {
    String message = "not a review kube-harness can read: " + e.getMessage();
    return new Answer(
        400, "{\"message\":" + quote(message) + "}", abbreviate(body), "400", Optional.of(message));
  }

  // The API server wants apiVersion and kind on the answer; JOSDK's controllers set them, a
  // hand-written handler may not.
  private static AdmissionReview envelope(AdmissionReview review) {
    if (review.getApiVersion() == null) {
      review.setApiVersion("admission.k8s.io/v1");
    }
    if (review.getKind() == null) {
      review.setKind("AdmissionReview");
    }
    review.setRequest(null);
    return review;
  }

  private static ConversionReview envelope(ConversionReview review) {
    if (review.getApiVersion() == null) {
      review.setApiVersion("apiextensions.k8s.io/v1");
    }
    if (review.getKind() == null) {
      review.setKind("ConversionReview");
    }
    review.setRequest(null);
    return review;
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot write a review: " + e, e);
    }
  }

  static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (Exception e) {
      return "\"\"";
    }
  }

  private static String trace(Throwable e) {
    StringWriter out = new StringWriter();
    e.printStackTrace(new PrintWriter(out));
    return out.toString().strip();
  }

  static String abbreviate(String s) {
    String oneLine = s.replaceAll("\\s+", " ");
    return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
  }
}
