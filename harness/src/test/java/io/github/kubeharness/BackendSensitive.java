package io.github.kubeharness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test (class or method) that runs on the suite's backend (nothing pins it) and whose behaviour
 * depends on which backend that is: what the backend starts, stops, wires or mounts — profiles, the
 * controller manager's restart, audit logs in reports, ServiceAccount tokens, the API server
 * calling the test JVM's webhooks. {@code make test} runs it on {@code local}; {@code make
 * test-container} (tag {@value #TAG}, {@code .ci/run}'s container pass) runs these alone again on
 * {@code container}.
 *
 * <p>Not for a test that pins its backend ({@code backend = "local"}, {@code ControlPlanes.local},
 * {@code withBackend(...)}): it runs the same in both passes, and the container's own tests are
 * pinned to it and run in {@code make test}. Not for one that reads the API only through a client
 * (assertions, namespaces, injection): the API server is the same program on every backend. The
 * choice, class by class, is in docs/ci.md.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(BackendSensitive.TAG)
public @interface BackendSensitive {

  /** The JUnit tag: {@code -Dgroups=backend-sensitive}. */
  String TAG = "backend-sensitive";
}
