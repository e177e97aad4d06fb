package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The boundary is the compiler's, not a convention: a user's class that names a package-private
 * internal type does not compile. Real javac, against the harness's compiled classes, on the class
 * path as every user's build has it (docs/architecture.md says why there is no module descriptor).
 */
class InternalBoundaryCompileTest {

  @TempDir Path sources;

  @Test
  void aUserClassNamingAPackagePrivateInternalTypeDoesNotCompile() throws Exception {
    String output =
        compile(
            """
            package com.example.user;

            class ReachesIn {
              Object etcd = io.github.kubeharness.internal.backend.Etcd.class;
              Object apiServer = io.github.kubeharness.internal.backend.ApiServer.class;
            }
            """);

    assertThat(output)
        .contains(
            "Etcd is not public in io.github.kubeharness.internal.backend;"
                + " cannot be accessed from outside package")
        .contains(
            "ApiServer is not public in io.github.kubeharness.internal.backend;"
                + " cannot be accessed from outside package");
  }

  @Test
  void theSameUserClassOnTheApiCompiles() throws Exception {
    // The control: the compilation above fails for the access alone, not for its set-up.
    String output =
        compile(
            """
            package com.example.user;

            class StaysOutside {
              Object options = io.github.kubeharness.ControlPlaneOptions.builder().build();
              Object plane = io.github.kubeharness.launch.ControlPlanes.class;
            }
            """);

    assertThat(output).isEmpty();
  }

  private String compile(String source) throws Exception {
    Path file = sources.resolve("com/example/user/" + className(source) + ".java");
    Files.createDirectories(file.getParent());
    Files.writeString(file, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter output = new StringWriter();
    boolean compiled =
        javac
            .getTask(
                output,
                null,
                null,
                List.of(
                    "-proc:none",
                    "-d",
                    sources.resolve("out").toString(),
                    "-classpath",
                    harnessClasses() + File.pathSeparator + System.getProperty("java.class.path")),
                null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(file.toFile()))
            .call();
    assertThat(compiled).as(output.toString()).isEqualTo(output.toString().isEmpty());
    return output.toString();
  }

  private static String className(String source) {
    return source.replaceAll("(?s).*\\bclass (\\w+).*", "$1");
  }

  private static String harnessClasses() throws URISyntaxException {
    return Path.of(ControlPlane.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
  }
}
