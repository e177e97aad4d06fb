package com.example.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Each compatibility module really runs on what it claims: JUnit, Java, one HTTP client. */
class RuntimeIT {

  @Test
  void runsOnTheJUnitOfThisModule() {
    assertThat(org.junit.jupiter.api.Test.class.getPackage().getImplementationVersion())
        .isEqualTo(System.getProperty("expected.junit.version"));
  }

  @Test
  void runsOnTheExpectedJava() {
    String expected = System.getProperty("expected.java.feature", "17");
    assertThat(Runtime.version().feature()).isEqualTo(Integer.parseInt(expected));
  }

  @Test
  void kubeHarnessAddsNoSecondHttpClient() {
    List<String> factories = new ArrayList<>();
    ServiceLoader.load(HttpClient.Factory.class)
        .forEach(f -> factories.add(f.getClass().getName()));
    assertThat(factories).hasSize(1);
    String expected = System.getProperty("expected.http.client");
    if (expected != null) {
      assertThat(factories).containsExactly(expected);
    }
  }
}
