package io.github.kubeharness.internal.faults;

import java.util.List;

/**
 * Who a request through the {@link FaultProxy} comes from, once authenticated: the user, uid and
 * groups the API server knows the caller by (a verified client certificate's common name and
 * organizations, or what a TokenReview of its bearer token said), and the {@code Impersonate-*}
 * headers it sent, if any (the API server then answers as someone else, authorized for it).
 *
 * @param impersonating the caller's {@code Impersonate-*} headers, one text; empty when none
 */
record Caller(String user, String uid, List<String> groups, String impersonating) {

  Caller {
    groups = groups.stream().sorted().toList();
  }

  /**
   * The identity as one text: what a stale snapshot is kept under, so that it is served again only
   * to the identity (and impersonation) whose read the API server answered.
   */
  String key() {
    return user + "\u0000" + uid + "\u0000" + String.join(",", groups) + "\u0000" + impersonating;
  }

  @Override
  public String toString() {
    return impersonating.isEmpty() ? user : user + " (" + impersonating + ")";
  }
}
