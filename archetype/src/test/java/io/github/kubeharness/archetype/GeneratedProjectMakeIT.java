package io.github.kubeharness.archetype;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.github.kubeharness.archetype.Commands.Finished;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The project the archetype makes, used as its README says: its CI workflow's test step ({@code
 * make test}: the sample kind's tests against a real API server) and {@code make build-installer}
 * (kustomize's {@code config/default}, what {@code make deploy} applies). The targets that need a
 * control plane or Docker are in {@link GeneratedProjectClusterIT}; {@code make deploy} on kind in
 * {@link GeneratedProjectOnKindIT}.
 */
@Tag("generated")
class GeneratedProjectMakeIT {

  @TempDir static Path tmp;
  static GeneratedProject project;

  @BeforeAll
  static void generate() throws Exception {
    project = GeneratedProject.fromArchetype(tmp);
  }

  /**
   * The workflow parses, its test step is a make target of the project, and that step, run as
   * written, passes with the sample kind's three tests run (a verify that ran none would pass too).
   */
  @Test
  void theCiWorkflowsTestStepRunsTheKindsTestsAgainstARealApiServer() throws Exception {
    List<String> runs = workflowRuns();
    List<String> makeCommands = runs.stream().filter(run -> run.startsWith("make ")).toList();
    assertThat(makeCommands).as("the workflow's steps that run a make target").hasSize(1);
    for (String command : makeCommands) {
      // make -n: the target exists (make says "No rule to make target" otherwise), nothing runs
      project.run("make-n.log", "make", "-n", command.substring("make ".length())).succeeded();
    }

    Finished test = project.run("workflow-test-step.log", "bash", "-c", makeCommands.get(0));

    test.succeeded();
    Path summaryFile = project.dir().resolve("target/failsafe-reports/failsafe-summary.xml");
    assertThat(summaryFile)
        .as("failsafe's summary: none when the project's verify found no IT to run")
        .isRegularFile();
    String summary = Files.readString(summaryFile);
    // create → Deployment → status, delete → GC, the CEL rule's 422: all three ran and passed
    assertThat(summary)
        .as("the generated project's failsafe summary")
        .contains(
            "<completed>3</completed>",
            "<failures>0</failures>",
            "<errors>0</errors>",
            "<skipped>0</skipped>");
    assertThat(test.output()).contains("Tests run: 3, Failures: 0, Errors: 0, Skipped: 0");
  }

  /**
   * The workflow's other step installs kube-harness from its sources: it must install every
   * kube-harness artifact the project's pom asks for, or the first CI run fails to resolve one.
   */
  @Test
  void theCiWorkflowInstallsEveryKubeHarnessArtifactThePomNeeds() throws Exception {
    String install =
        workflowRuns().stream()
            .filter(run -> run.contains(" install "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no step installs kube-harness"));
    Matcher modules = Pattern.compile(" -pl ([a-z,-]+) ").matcher(install);
    assertThat(modules.find()).as("-pl in %s", install).isTrue();
    TreeSet<String> installed = new TreeSet<>();
    for (String module : modules.group(1).split(",")) {
      Path pom = Path.of("..", module, "pom.xml");
      assertThat(pom).as("module %s of the workflow's -pl, in this repository", module).exists();
      installed.add(artifactId(Files.readString(pom)));
    }
    TreeSet<String> needed = new TreeSet<>();
    Matcher dependency =
        Pattern.compile("<groupId>io\\.github\\.kubeharness</groupId>\\s*<artifactId>([^<]+)<")
            .matcher(Files.readString(project.dir().resolve("pom.xml")));
    while (dependency.find()) {
      needed.add(dependency.group(1));
    }

    assertThat(needed).isNotEmpty();
    assertThat(installed).as("what the workflow installs (%s)", install).containsAll(needed);
  }

  /**
   * {@code make build-installer}: the CRD generated from the Java classes, the RBAC and the
   * operator's Deployment, built by kustomize from config/default with the image asked for.
   */
  @Test
  void buildInstallerRendersConfigDefaultWithKustomize() throws Exception {
    project
        .run("build-installer.log", "make", "build-installer", "IMG=example.com/op:v1")
        .succeeded();

    Map<String, JsonNode> objects = new java.util.TreeMap<>();
    try (var parser =
        new YAMLMapper()
            .readerFor(JsonNode.class)
            .readValues(project.dir().resolve("dist/install.yaml").toFile())) {
      while (parser.hasNext()) {
        JsonNode object = (JsonNode) parser.next();
        objects.put(
            object.path("kind").asText()
                + " "
                + object.path("metadata").path("namespace").asText("-")
                + "/"
                + object.path("metadata").path("name").asText(),
            object);
      }
    }
    String ns = "guestbook-operator-system";
    assertThat(objects)
        .containsKeys(
            "CustomResourceDefinition -/guestbooks.webapp.my.domain",
            "Namespace -/" + ns,
            "ServiceAccount " + ns + "/guestbook-operator-controller-manager",
            "Deployment " + ns + "/guestbook-operator-controller-manager");
    JsonNode deployment =
        objects.get("Deployment " + ns + "/guestbook-operator-controller-manager");
    JsonNode container = deployment.at("/spec/template/spec/containers/0");
    assertThat(container.path("image").asText()).isEqualTo("example.com/op:v1");
    assertThat(deployment.at("/spec/template/spec/serviceAccountName").asText())
        .isEqualTo("guestbook-operator-controller-manager");
    // the ServiceAccount is bound to the role that lets it read and report Guestbooks
    assertThat(objects.values())
        .filteredOn(object -> object.path("kind").asText().endsWith("RoleBinding"))
        .anySatisfy(
            binding ->
                assertThat(binding.path("subjects").toString())
                    .contains("\"guestbook-operator-controller-manager\"", "\"" + ns + "\""));
  }

  private List<String> workflowRuns() throws Exception {
    JsonNode workflow =
        new YAMLMapper().readTree(project.dir().resolve(".github/workflows/ci.yml").toFile());
    JsonNode steps = workflow.path("jobs").path("test").path("steps");
    assertThat(steps.isArray()).as("jobs.test.steps in .github/workflows/ci.yml").isTrue();
    List<String> runs = new ArrayList<>();
    for (JsonNode step : steps) {
      if (step.has("run")) {
        step.get("run").asText().lines().map(String::strip).forEach(runs::add);
      } else {
        assertThat(step.path("uses").asText()).as("a step without run: %s", step).isNotEmpty();
      }
    }
    return runs;
  }

  private static String artifactId(String pom) {
    // the module's own artifactId: the first one after the parent's block
    String own = pom.substring(pom.indexOf("</parent>"));
    Matcher m = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(own);
    assertThat(m.find()).isTrue();
    return m.group(1);
  }
}
