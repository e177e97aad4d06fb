package io.github.kubeharness.internal.junit;

import io.fabric8.kubernetes.client.http.HttpClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Checks the test classpath for the fabric8 set-ups that otherwise fail deep inside a client with a
 * {@code NoClassDefFoundError} or a warning: fabric8 modules of different versions (a project's
 * JOSDK brings {@code kubernetes-client-api} of its version, kube-harness {@code kubernetes-client}
 * of its own), fabric8 8 (on Jackson 3, which kube-harness is not yet), and no HTTP client at all
 * (kube-harness uses the project's rather than forcing one).
 */
final class ClasspathCheck {

  /** The fabric8 version kube-harness is built and released on, named in the fix. */
  private static final String SUPPORTED_EXAMPLE = "7.5.2";

  private static final String[] FABRIC8_MODULES = {
    "kubernetes-client-api", "kubernetes-client", "kubernetes-model-core"
  };

  private ClasspathCheck() {}

  /** Fails with the fix when the classpath cannot run fabric8 clients. */
  static void requireUsableFabric8() {
    Map<String, String> versions = fabric8Versions();
    requireOneFabric8Version(versions);
    requireSupportedFabric8(versions);
    requireHttpClient();
  }

  /**
   * Refuses fabric8 8 before anything starts: it moved to Jackson 3 and, for its default HTTP
   * client, to Vert.x 5, while kube-harness reads manifests, reports and webhook payloads with
   * Jackson 2 (which fabric8 7 brings) and runs its fault proxy on Vert.x 4. Unchecked, a class
   * fails later with {@code NoClassDefFoundError: com/fasterxml/jackson/...} while installing its
   * CRDs, or on the Vert.x 5 client. docs/compatibility.md has the evidence and the way to 8.
   */
  static void requireSupportedFabric8(Map<String, String> versions) {
    if (versions.values().stream().noneMatch(v -> compareVersions(v, "8") >= 0)) {
      return;
    }
    throw new ExtensionConfigurationException(
        "The test classpath has fabric8 "
            + listed(versions)
            + "; kube-harness supports fabric8 kubernetes-client 7.x from 7.3. fabric8 8 moved to"
            + " Jackson 3 (tools.jackson) and its default HTTP client to Vert.x 5, while"
            + " kube-harness reads manifests, reports and webhook payloads with Jackson 2 and"
            + " runs its fault proxy on Vert.x 4, so it would fail later with"
            + " NoClassDefFoundError. Use fabric8 7.x: import io.fabric8:kubernetes-client-bom "
            + SUPPORTED_EXAMPLE
            + " (the version JOSDK 5.2 brings) in <dependencyManagement> (Gradle:"
            + " platform(...)) or depend on JOSDK 5.2, which brings it.");
  }

  static void requireOneFabric8Version(Map<String, String> versions) {
    if (versions.values().stream().distinct().count() > 1) {
      // The newest of them that is supported: pinning fabric8 8 would only fail next.
      String newest =
          versions.values().stream()
              .filter(v -> compareVersions(v, "8") < 0)
              .max(ClasspathCheck::compareVersions)
              .orElse(SUPPORTED_EXAMPLE);
      throw new ExtensionConfigurationException(
          "The test classpath mixes fabric8 versions ("
              + listed(versions)
              + "), which fails at run time with NoClassDefFoundError. This happens when JOSDK"
              + " brings one version and kube-harness another. Pin one version for all fabric8"
              + " modules: import io.fabric8:kubernetes-client-bom (for example "
              + newest
              + ") in <dependencyManagement> (Gradle: platform(...)).");
    }
  }

  private static String listed(Map<String, String> versions) {
    StringJoiner found = new StringJoiner(", ");
    versions.forEach((module, version) -> found.add(module + ' ' + version));
    return found.toString();
  }

  private static void requireHttpClient() {
    boolean found =
        ServiceLoader.load(HttpClient.Factory.class, ClasspathCheck.class.getClassLoader())
            .iterator()
            .hasNext();
    if (!found) {
      throw new ExtensionConfigurationException(
          "No fabric8 HTTP client on the test classpath. kube-harness uses the one your project"
              + " has; JOSDK and io.fabric8:kubernetes-client bring"
              + " io.fabric8:kubernetes-httpclient-vertx. Add it (or kubernetes-httpclient-jdk,"
              + " kubernetes-httpclient-okhttp) as a test dependency.");
    }
  }

  /** Module to version, from each fabric8 jar's Maven metadata (absent in a shaded jar). */
  private static Map<String, String> fabric8Versions() {
    Map<String, String> versions = new TreeMap<>();
    ClassLoader loader = ClasspathCheck.class.getClassLoader();
    for (String module : FABRIC8_MODULES) {
      URL url = loader.getResource("META-INF/maven/io.fabric8/" + module + "/pom.properties");
      if (url == null) {
        continue;
      }
      try (InputStream in = url.openStream()) {
        Properties properties = new Properties();
        properties.load(in);
        String version = properties.getProperty("version");
        if (version != null) {
          versions.put(module, version);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read " + url, e);
      }
    }
    return versions;
  }

  static int compareVersions(String a, String b) {
    String[] x = a.split("[.-]");
    String[] y = b.split("[.-]");
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c =
          x[i].matches("\\d+") && y[i].matches("\\d+")
              ? Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]))
              : x[i].compareTo(y[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }
}
