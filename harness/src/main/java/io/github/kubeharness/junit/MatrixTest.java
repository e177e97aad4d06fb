package io.github.kubeharness.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;

/**
 * A test of a {@link ControllerTest} class that runs once per Kubernetes version of the class's
 * matrix ({@link ControllerTest#kubernetesVersions()}, or the setting {@code
 * kubeharness.kubernetes.versions}), each run on that version's own API server and named after it:
 * {@code createsADeployment() [k8s 1.36.3]}. Without a matrix it runs once, on the class's version.
 * Use it instead of {@code @Test}; the injected {@link io.github.kubeharness.ControlPlane} says
 * which version this run has ({@code kubernetesVersion()}).
 *
 * <pre>{@code
 * @ControllerTest(crdClasses = Guestbook.class, reconcilers = GuestbookReconciler.class,
 *     kubernetesVersions = {"1.35", "1.36", "1.37"})
 * class GuestbookIT {
 *   @MatrixTest
 *   void createsADeployment(KubernetesClient client) { ... }
 * }
 * }</pre>
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
public @interface MatrixTest {}
