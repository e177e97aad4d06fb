package io.github.kubeharness.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.ControlPlaneOptions;
import io.github.kubeharness.internal.shared.ControlPlaneKey;
import java.util.AbstractMap.SimpleEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a run's plan lets go of a control plane, and when it must not. */
class SuitePlanTest {

  private static final ControlPlaneKey NEWEST = key("1.37.2");
  private static final ControlPlaneKey OLDEST = key("1.35.4");

  // Test classes of the plans below: the plan knows them by name.
  static class First {}

  static class Second {}

  static class Third {}

  private final List<String> closed = new ArrayList<>();
  private SuitePlan plan;

  @AfterEach
  void endThePlan() {
    if (plan != null) {
      plan.end();
    }
  }

  @Test
  void aControlPlaneIsLetGoOfWhenItsLastPlannedClassFinishes() {
    plan =
        plan(
            Map.of("[1]", First.class, "[2]", Second.class, "[3]", Third.class),
            Map.of("[1]", Set.of(NEWEST), "[2]", Set.of(OLDEST), "[3]", Set.of(NEWEST)));
    use(First.class, NEWEST);
    plan.finished(List.of("[1]"));
    assertThat(closed).isEmpty(); // the third class needs it
    use(Second.class, OLDEST);
    plan.finished(List.of("[2]"));
    assertThat(closed).containsExactly(OLDEST.kubernetesVersion());
    use(Third.class, NEWEST);
    plan.finished(List.of("[3]"));
    assertThat(closed).containsExactly(OLDEST.kubernetesVersion(), NEWEST.kubernetesVersion());
  }

  @Test
  void aClassWhoseNeedsAreUnknownKeepsEverythingUntilItFinishes() {
    Map<String, Set<ControlPlaneKey>> needs = new LinkedHashMap<>();
    needs.put("[1]", Set.of(NEWEST));
    needs.put("[2]", null);
    plan = plan(Map.of("[1]", First.class, "[2]", Second.class), needs);
    use(First.class, NEWEST);
    plan.finished(List.of("[1]"));
    assertThat(closed).isEmpty();
    plan.finished(List.of("[2]"));
    assertThat(closed).containsExactly(NEWEST.kubernetesVersion());
  }

  @Test
  void aControlPlaneAClassUsesUnpredictedIsKeptWhileThatClassRuns() {
    plan =
        plan(
            Map.of("[1]", First.class, "[2]", Second.class),
            Map.of("[1]", Set.of(NEWEST), "[2]", Set.of()));
    use(First.class, NEWEST);
    use(Second.class, NEWEST); // mis-predicted: the second class uses it too, running beside
    plan.finished(List.of("[1]"));
    assertThat(closed).isEmpty();
    plan.finished(List.of("[2]"));
    assertThat(closed).containsExactly(NEWEST.kubernetesVersion());
  }

  @Test
  void aClassNoPlanKnowsIsNotTracked() {
    plan = plan(Map.of("[1]", First.class), Map.of("[1]", Set.of(NEWEST)));
    use(Third.class, OLDEST);
    plan.finished(List.of("[1]"));
    assertThat(closed).isEmpty(); // the run's end closes it, as without a plan
  }

  private SuitePlan plan(Map<String, Class<?>> classes, Map<String, Set<ControlPlaneKey>> needs) {
    Map<String, Map.Entry<String, Set<ControlPlaneKey>>> planned = new LinkedHashMap<>();
    classes.keySet().stream()
        .sorted()
        .forEach(
            id -> planned.put(id, new SimpleEntry<>(classes.get(id).getName(), needs.get(id))));
    return SuitePlan.begin(planned);
  }

  private void use(Class<?> testClass, ControlPlaneKey key) {
    SuitePlan.using(
        testClass, key, "cluster:" + key, () -> () -> closed.add(key.kubernetesVersion()));
  }

  private static ControlPlaneKey key(String version) {
    return ControlPlaneKey.of(ControlPlaneOptions.builder().withKubernetesVersion(version).build());
  }
}
