package io.github.kubeharness.webhooks;

import io.fabric8.kubernetes.api.model.apiextensions.v1.ConversionReview;

/**
 * Answers the API server's conversion reviews for a CRD whose {@code spec.conversion.strategy} is
 * {@code Webhook}. JOSDK's {@code ConversionController} fits as {@code controller::handle}.
 *
 * <p>A handler that throws is answered with a failed conversion carrying the exception's message.
 */
@FunctionalInterface
public interface ConversionHandler {
  ConversionReview handle(ConversionReview review) throws Exception;
}
