package io.github.kubeharness.internal.scaffold;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The versions a generated project is pinned to: kube-harness's own and those of the libraries and
 * plugins it is built with, written into {@code versions.properties} by the CLI module's build
 * (Maven resource filtering of the root pom's properties), so they cannot drift from the build's.
 */
final class ScaffoldVersions {

  private ScaffoldVersions() {}

  /** Template value name to version, e.g. {@code josdkVersion=5.2.3}. */
  static Map<String, String> all() {
    Properties properties = new Properties();
    try (InputStream in = ScaffoldVersions.class.getResourceAsStream("versions.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            "versions.properties is missing from the kube-harness CLI jar");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> versions = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      String value = properties.getProperty(name);
      if (value.contains("${")) {
        // NB: read from target/classes of an unfiltered build (an IDE's copy): say so, not later.
        throw new IllegalStateException(
            "versions.properties holds the unfiltered "
                + name
                + "="
                + value
                + ": build the CLI with Maven (make cli)");
      }
      versions.put(name, value);
    }
    return versions;
  }
}
