package io.github.kubeharness.internal.scaffold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The template sets and their indexes agree: a template file left out of its index would never be
 * written (a jar's directory cannot be listed, so the index is all the generator sees).
 */
class TemplatesTest {

  private static final Path TEMPLATES =
      Path.of("src/main/resources/io/github/kubeharness/internal/scaffold/templates");

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"init", "api"})
  void everyTemplateFileIsInItsIndexAndEveryIndexEntryIsAFile(String set) throws IOException {
    Path root = TEMPLATES.resolve(set);
    List<String> files;
    try (Stream<Path> paths = Files.walk(root)) {
      files =
          paths
              .filter(Files::isRegularFile)
              .map(p -> root.relativize(p).toString())
              .sorted()
              .toList();
    }

    assertThat(Templates.index(set)).containsExactlyInAnyOrderElementsOf(files);
  }

  @Test
  void aPlaceholderWithoutAValueFailsNamingIt() {
    assertThatThrownBy(() -> Templates.fill("a {{missing}} b", Map.of("kind", "Guestbook")))
        .hasMessageContaining("{{missing}} has no value");
  }

  @Test
  void gitHubExpressionsAreNotPlaceholders() {
    assertThat(Templates.fill("${{ matrix.java }} {{kind}}", Map.of("kind", "Guestbook")))
        .isEqualTo("${{ matrix.java }} Guestbook");
  }

  @Test
  void pluralsFollowKubebuilder() {
    assertThat(Names.plural("Guestbook")).isEqualTo("guestbooks");
    assertThat(Names.plural("Policy")).isEqualTo("policies");
    assertThat(Names.plural("Gateway")).isEqualTo("gateways");
    assertThat(Names.plural("Ingress")).isEqualTo("ingresses");
    assertThat(Names.plural("Box")).isEqualTo("boxes");
  }
}
