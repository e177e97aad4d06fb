package io.github.kubeharness.bench;

import static io.github.kubeharness.assertions.KubeAssertions.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.github.kubeharness.junit.ControllerTest;
import io.github.kubeharness.junit.fixtures.Widget;
import io.github.kubeharness.junit.fixtures.WidgetReconciler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The suite of {@link ParallelSuiteChild}: 20 test classes of two tests each, every test what a
 * controller test typically does — create a resource, wait for the controller's object, change the
 * resource, wait for the change, delete it.
 */
public final class TwentyClassesScenario {

  static final List<Class<?>> CLASSES =
      List.of(
          Class01.class,
          Class02.class,
          Class03.class,
          Class04.class,
          Class05.class,
          Class06.class,
          Class07.class,
          Class08.class,
          Class09.class,
          Class10.class,
          Class11.class,
          Class12.class,
          Class13.class,
          Class14.class,
          Class15.class,
          Class16.class,
          Class17.class,
          Class18.class,
          Class19.class,
          Class20.class);

  private TwentyClassesScenario() {}

  @ControllerTest(crds = "harness/src/test/resources/crds", reconcilers = WidgetReconciler.class)
  public abstract static class Reconciling {

    KubernetesClient client;

    @Test
    void createsItsConfigMap() {
      roundTrip("first");
    }

    @Test
    void followsAChange() {
      roundTrip("second");
    }

    private void roundTrip(String name) {
      var widgets = client.resources(Widget.class);
      widgets.resource(Widget.named(name, "one")).create();
      eventually(client.configMaps().withName(name))
          .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "one"));
      // A merge patch: the controller writes the status meanwhile, which an edit would conflict
      // with.
      widgets
          .withName(name)
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"message\":\"two\"}}");
      eventually(client.configMaps().withName(name))
          .satisfies(cm -> assertThat(cm.getData()).containsEntry("message", "two"));
      widgets.withName(name).delete();
    }
  }

  public static class Class01 extends Reconciling {}

  public static class Class02 extends Reconciling {}

  public static class Class03 extends Reconciling {}

  public static class Class04 extends Reconciling {}

  public static class Class05 extends Reconciling {}

  public static class Class06 extends Reconciling {}

  public static class Class07 extends Reconciling {}

  public static class Class08 extends Reconciling {}

  public static class Class09 extends Reconciling {}

  public static class Class10 extends Reconciling {}

  public static class Class11 extends Reconciling {}

  public static class Class12 extends Reconciling {}

  public static class Class13 extends Reconciling {}

  public static class Class14 extends Reconciling {}

  public static class Class15 extends Reconciling {}

  public static class Class16 extends Reconciling {}

  public static class Class17 extends Reconciling {}

  public static class Class18 extends Reconciling {}

  public static class Class19 extends Reconciling {}

  public static class Class20 extends Reconciling {}
}
