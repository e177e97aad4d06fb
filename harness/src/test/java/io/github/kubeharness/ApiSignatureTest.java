package io.github.kubeharness;

import static org.assertj.core.api.Assertions.fail;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * harness/api/kube-harness.api is the public API as it is: a change to a public or protected
 * signature outside {@code internal} fails here until the file is regenerated, so every API change
 * shows in review as a diff of that file. Nothing is released yet, so the committed file is the
 * baseline (docs/developing.md, The API signature file).
 */
class ApiSignatureTest {

  static final String FILE = "harness/api/kube-harness.api";
  static final String COMMAND =
      "./mvnw -q -o -pl harness test -Dtest=ApiSignatureTest -DwriteApiSignature=true";

  private static final String HEADER =
      "# The public API of kube-harness: every reachable type outside io.github.kubeharness.internal\n"
          + "# and its public and protected members. Generated; ApiSignatureTest fails when it differs.\n"
          + "# Regenerate: "
          + COMMAND
          + "\n";

  @Test
  void theCommittedSignatureFileIsThePublicApi() throws IOException {
    String generated =
        HEADER
            + ApiSignature.of(
                new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.github.kubeharness"));
    Path file = MarkdownDocs.root().resolve(FILE);
    if (Boolean.getBoolean("writeApiSignature")) {
      Files.createDirectories(file.getParent());
      Files.writeString(file, generated);
      return;
    }
    List<String> committed = Files.exists(file) ? Files.readAllLines(file) : List.of();
    List<String> expected = generated.lines().toList();
    if (!committed.equals(expected)) {
      fail(
          "The public API differs from "
              + FILE
              + " (- committed, + the compiled API):\n"
              + LineDiff.of(committed, expected)
              + "\nIf the change is meant, regenerate the file and commit it with the change: "
              + COMMAND);
    }
  }
}
