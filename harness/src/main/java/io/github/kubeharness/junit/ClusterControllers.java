package io.github.kubeharness.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Reconcilers and controllers that run on one of the test's further clusters ({@link
 * ControllerTest#clusters()}), watching the test's namespace there. Those of {@link
 * ControllerTest#reconcilers()} and {@link ControllerTest#controllers()} run on the first cluster.
 * A reconciler or controller whose constructor takes an {@link io.github.kubeharness.Clusters} gets
 * the clients of every cluster besides its own.
 *
 * <pre>{@code
 * @ControllerTest(clusters = {"hub", "edge-1"}, reconcilers = FanOutReconciler.class)
 * @ClusterControllers(cluster = "edge-1", controllers = EdgeAgent.class)
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(ClusterControllers.All.class)
public @interface ClusterControllers {

  /** The cluster they run on: one of {@link ControllerTest#clusters()}. */
  String cluster();

  /** JOSDK reconcilers, as {@link ControllerTest#reconcilers()}. */
  Class<?>[] reconcilers() default {};

  /** Other controllers, as {@link ControllerTest#controllers()}. */
  Class<? extends ControllerFactory>[] controllers() default {};

  /** The container of repeated {@link ClusterControllers}. */
  @Target(ElementType.TYPE)
  @Retention(RetentionPolicy.RUNTIME)
  @Documented
  @Inherited
  @interface All {
    /** The repeated annotations. */
    ClusterControllers[] value();
  }
}
