package io.github.kubeharness.samples.greeting;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * The API servers the test classes of this JVM saw. Kept in a system property: Quarkus loads the
 * test classes anew for each application it starts, so a static field would not see the others.
 */
final class SeenApiServers {

  private static final String PROPERTY = "greeting.test.api-servers";

  private SeenApiServers() {}

  static synchronized Set<String> record(String apiServer) {
    Set<String> seen = new TreeSet<>(Arrays.asList(System.getProperty(PROPERTY, apiServer).split(" ")));
    seen.add(apiServer);
    System.setProperty(PROPERTY, String.join(" ", seen));
    return seen;
  }
}
