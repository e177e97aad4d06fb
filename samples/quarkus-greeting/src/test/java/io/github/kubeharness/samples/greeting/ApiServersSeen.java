package io.github.kubeharness.samples.greeting;

import java.util.Map;
import java.util.TreeMap;

/**
 * The API servers the test classes of this JVM saw. Kept in system properties: Quarkus loads each
 * test class that restarts the application in a class loader of its own, so a static field would
 * hold only that class's.
 */
final class ApiServersSeen {

  private static final String PREFIX = "greeting-sample.api-server.";

  private ApiServersSeen() {}

  static void record(Class<?> testClass, String apiServerUrl) {
    System.setProperty(PREFIX + testClass.getName(), apiServerUrl);
  }

  /** Test class to the API server it saw: whichever class runs last sees the others'. */
  static Map<String, String> byTestClass() {
    Map<String, String> seen = new TreeMap<>();
    System.getProperties()
        .forEach(
            (key, value) -> {
              if (key.toString().startsWith(PREFIX)) {
                seen.put(key.toString().substring(PREFIX.length()), value.toString());
              }
            });
    return seen;
  }
}
