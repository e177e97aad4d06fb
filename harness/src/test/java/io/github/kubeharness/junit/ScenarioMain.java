package io.github.kubeharness.junit;

import java.util.Map;

/**
 * Runs scenario classes in a JVM of their own (for settings that only the environment can carry,
 * such as {@code USE_EXISTING_CLUSTER}) and prints one {@code RESULT <status> <test>} line each,
 * then {@code DONE}.
 */
public final class ScenarioMain {

  private ScenarioMain() {}

  public static void main(String[] classNames) throws Exception {
    Class<?>[] classes = new Class<?>[classNames.length];
    for (int i = 0; i < classNames.length; i++) {
      classes[i] = Class.forName(classNames[i]);
    }
    for (ScenarioRunner.Outcome o : ScenarioRunner.run(Map.of(), classes)) {
      System.out.println(
          "RESULT "
              + o.status()
              + " "
              + o.displayName()
              + (o.failure() == null
                  ? ""
                  : " " + ScenarioRunner.fullMessage(o.failure()).replace('\n', ' ')));
    }
    System.out.println("DONE");
    System.exit(0);
  }
}
