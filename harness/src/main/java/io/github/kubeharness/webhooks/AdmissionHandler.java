package io.github.kubeharness.webhooks;

import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;

/**
 * Answers the API server's admission reviews for one path: a mutating or validating webhook.
 * JOSDK's {@code AdmissionController} fits as a method reference ({@code controller::handle}).
 *
 * <p>A handler that throws is answered as a denial with code 400 and the exception's message
 * (controller-runtime uses 500, which fabric8 clients retry ten times before the test sees it), and
 * {@code webhooks.txt} of the failure report names the request and carries the stack trace.
 */
@FunctionalInterface
public interface AdmissionHandler {
  AdmissionReview handle(AdmissionReview review) throws Exception;
}
