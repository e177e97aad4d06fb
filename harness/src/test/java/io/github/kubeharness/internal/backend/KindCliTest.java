package io.github.kubeharness.internal.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kind get kubeconfig} prints the cluster's admin key: {@link KindCli} reads it through a
 * pipe, so no file of it exists that a {@code kill -9} of the JVM would leave behind. A stand-in
 * {@code kind} prints a key and where its standard output goes.
 */
class KindCliTest {

  @TempDir Path tmp;

  @Test
  void theAdminKubeconfigIsReadThroughAPipeNotAFile() throws IOException {
    Path kind = tmp.resolve("kind");
    Files.writeString(
        kind,
        String.join(
            "\n",
            "#!/bin/sh",
            "echo \"client-key-data: c2VjcmV0 for $*\"",
            "echo \"stdout: $(readlink /proc/$$/fd/1)\"",
            "echo \"on stderr\" >&2",
            ""));
    Files.setPosixFilePermissions(kind, PosixFilePermissions.fromString("rwx------"));

    String output = new KindCli(kind.toString()).kubeconfig("hub");

    assertThat(output)
        .contains("client-key-data: c2VjcmV0 for get kubeconfig --name hub", "on stderr")
        .containsPattern("stdout: pipe:\\[\\d+\\]");
  }
}
