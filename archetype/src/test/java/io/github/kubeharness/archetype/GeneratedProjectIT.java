package io.github.kubeharness.archetype;

import static io.github.kubeharness.archetype.GeneratorCommand.createApi;
import static io.github.kubeharness.archetype.GeneratorCommand.init;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mvn archetype:generate} from this module's archetype makes, file for file, the project
 * {@code kube-harness init} then {@code create api --group webapp --version v1 --kind Guestbook}
 * make: one project, whichever way it was made. {@link GeneratedProjectMakeIT} runs its make
 * targets (its tests among them).
 */
class GeneratedProjectIT {

  @Test
  void theArchetypeMakesTheProjectInitAndCreateApiMake(@TempDir Path tmp) throws Exception {
    Path fromCli = tmp.resolve("cli/guestbook-operator");
    init("my.domain", "com.example.guestbook", fromCli).succeeded();
    createApi("webapp", "v1", "Guestbook", fromCli).succeeded();
    Path repository = LocalRepository.withThisBuild(tmp.resolve("m2"));

    Path generated =
        LocalRepository.generate(tmp.resolve("archetype"), repository, tmp.resolve("gen.log"));

    Map<String, String> fromArchetype = GeneratorCommand.snapshot(generated);
    // the kind's classes, its test and its wiring: what makes the first mvn verify test something
    assertThat(fromArchetype)
        .containsKeys(
            "src/main/java/com/example/guestbook/api/v1/Guestbook.java",
            "src/main/java/com/example/guestbook/controller/GuestbookReconciler.java",
            "src/test/java/com/example/guestbook/controller/GuestbookReconcilerIT.java",
            "config/samples/webapp_v1_guestbook.yaml",
            ".gitignore");
    assertThat(fromArchetype.get("src/main/java/com/example/guestbook/OperatorMain.java"))
        .contains("operator.register(new com.example.guestbook.controller.GuestbookReconciler())");
    assertThat(fromArchetype).isEqualTo(GeneratorCommand.snapshot(fromCli));
  }
}
