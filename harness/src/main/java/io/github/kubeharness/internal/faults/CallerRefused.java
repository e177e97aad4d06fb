package io.github.kubeharness.internal.faults;

/**
 * Why the {@link FaultProxy} does not let a request in: answered with {@code status} and a {@code
 * Status} body of {@code reason}, and never seen by a rule.
 */
final class CallerRefused extends RuntimeException {

  private final int status;
  private final String reason;

  CallerRefused(int status, String reason, String message) {
    super(message, null, false, false);
    this.status = status;
    this.reason = reason;
  }

  int status() {
    return status;
  }

  String reason() {
    return reason;
  }
}
