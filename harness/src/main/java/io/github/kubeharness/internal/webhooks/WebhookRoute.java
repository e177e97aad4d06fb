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
abstract class WebhookRoute {

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

    static Answer tooLarge(String path, int limitBytes) {
      String message =
          "kube-harness's webhook server refused a request body of more than "
              + limitBytes / (1024 * 1024)
              + " MiB to "
              + path
              + ": it reads no more than that of one request. kube-apiserver's reviews stay"
              + " below it (one object of at most 3 MiB, kube-apiserver's request limit, and its"
              + " stored old version), so this request did not come from a review of one object";
      return new Answer(
          413, "{\"message\":" + quote(message) + "}", "-", "413", Optional.of(message));
    }
  }

  static WebhookRoute admission(String path, AdmissionHandler handler) {
    return typed(path, ADMISSION, handler::handle);
  }

  static WebhookRoute conversion(String path, ConversionHandler handler) {
    return typed(path, CONVERSION, handler::handle);
  }

  /** A handler of one review type, whichever public interface it came in. */
  @FunctionalInterface
  private interface Handler<R> {
    R handle(R review) throws Exception;
  }

  /**
   * What differs between admission and conversion reviews: how to read, describe and complete an
   * answer, and how to say that the handler failed.
   */
  private interface ReviewType<R> {
    Class<R> type();

    String describeRequest(R review);

    String uid(R review);

    /** Fills in what the API server requires of an answer and the handler may have left out. */
    boolean complete(R answer, String uid);

    R failure(String uid, String message);

    String failureOutcome(String message);

    String outcome(R answer);
  }

  private static <R> WebhookRoute typed(String path, ReviewType<R> kind, Handler<R> handler) {
    return new WebhookRoute(path) {
      @Override
      Answer answer(String body) {
        R review;
        try {
          review = JSON.readValue(body, kind.type());
        } catch (Exception e) {
          return unreadable(body, e);
        }
        String request = kind.describeRequest(review);
        String uid = kind.uid(review);
        R answer;
        try {
          answer = handler.handle(review);
          if (answer == null || !kind.complete(answer, uid)) {
            throw new IllegalStateException(
                "the handler returned no " + kind.type().getSimpleName() + " response");
          }
        } catch (Exception | LinkageError e) {
          String message = "webhook " + path + " failed: " + e;
          return new Answer(
              200,
              json(kind.failure(uid, message)),
              request,
              kind.failureOutcome(message),
              Optional.of(trace(e)));
        }
        return new Answer(200, json(answer), request, kind.outcome(answer), Optional.empty());
      }
    };
  }

  private static final ReviewType<AdmissionReview> ADMISSION =
      new ReviewType<>() {
        @Override
        public Class<AdmissionReview> type() {
          return AdmissionReview.class;
        }

        @Override
        public String describeRequest(AdmissionReview review) {
          return Describe.admissionRequest(review);
        }

        @Override
        public String uid(AdmissionReview review) {
          return review.getRequest() == null ? null : review.getRequest().getUid();
        }

        // The API server wants apiVersion and kind on the answer; JOSDK's controllers set them, a
        // hand-written handler may not.
        @Override
        public boolean complete(AdmissionReview answer, String uid) {
          if (answer.getResponse() == null) {
            return false;
          }
          if (answer.getResponse().getUid() == null) {
            answer.getResponse().setUid(uid);
          }
          if (answer.getApiVersion() == null) {
            answer.setApiVersion("admission.k8s.io/v1");
          }
          if (answer.getKind() == null) {
            answer.setKind("AdmissionReview");
          }
          answer.setRequest(null);
          return true;
        }

        // 400, not 500: fabric8 clients retry a 5xx up to ten times with back-off, which would
        // turn a handler's bug into half a minute of retries before the test sees it.
        @Override
        public AdmissionReview failure(String uid, String message) {
          AdmissionReview failed = new AdmissionReview();
          failed.setResponse(new AdmissionResponse());
          failed.getResponse().setAllowed(false);
          failed
              .getResponse()
              .setStatus(new StatusBuilder().withCode(400).withMessage(message).build());
          complete(failed, uid);
          return failed;
        }

        @Override
        public String failureOutcome(String message) {
          return "denied (400): " + message;
        }

        @Override
        public String outcome(AdmissionReview answer) {
          return Describe.admissionOutcome(answer);
        }
      };

  private static final ReviewType<ConversionReview> CONVERSION =
      new ReviewType<>() {
        @Override
        public Class<ConversionReview> type() {
          return ConversionReview.class;
        }

        @Override
        public String describeRequest(ConversionReview review) {
          return Describe.conversionRequest(review);
        }

        @Override
        public String uid(ConversionReview review) {
          return review.getRequest() == null ? null : review.getRequest().getUid();
        }

        @Override
        public boolean complete(ConversionReview answer, String uid) {
          if (answer.getResponse() == null) {
            return false;
          }
          if (answer.getResponse().getUid() == null) {
            answer.getResponse().setUid(uid);
          }
          if (answer.getApiVersion() == null) {
            answer.setApiVersion("apiextensions.k8s.io/v1");
          }
          if (answer.getKind() == null) {
            answer.setKind("ConversionReview");
          }
          answer.setRequest(null);
          return true;
        }

        @Override
        public ConversionReview failure(String uid, String message) {
          ConversionReview failed = new ConversionReview();
          failed.setResponse(new ConversionResponse());
          failed.getResponse().setConvertedObjects(List.of());
          failed
              .getResponse()
              .setResult(new StatusBuilder().withStatus("Failure").withMessage(message).build());
          complete(failed, uid);
          return failed;
        }

        @Override
        public String failureOutcome(String message) {
          return "failed: " + message;
        }

        @Override
        public String outcome(ConversionReview answer) {
          return Describe.conversionOutcome(answer);
        }
      };

  static WebhookRoute raw(String path, RawWebhookHandler handler) {
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
              Optional.of(
                  "the answer is not JSON (" + e.getMessage() + "): " + Describe.abbreviate(text)));
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
        400,
        "{\"message\":" + quote(message) + "}",
        Describe.abbreviate(body),
        "400",
        Optional.of(message));
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
}
