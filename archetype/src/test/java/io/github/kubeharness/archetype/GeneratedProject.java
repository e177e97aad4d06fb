package io.github.kubeharness.archetype;

import io.github.kubeharness.archetype.Commands.Finished;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A project made by the archetype, its make targets run as a user would run them: Maven ({@code
 * MVN}, the Makefile's variable) on the private repository that holds this build's kube-harness
 * ({@link LocalRepository}), offline.
 *
 * @param dir the project's directory
 * @param logs where each command's output goes
 * @param env the environment of every command
 */
record GeneratedProject(Path dir, Path logs, Map<String, String> env) {

  /** Generates the project under {@code tmp} with the archetype. */
  static GeneratedProject fromArchetype(Path tmp) throws Exception {
    Path repository = LocalRepository.withThisBuild(tmp.resolve("m2"));
    Path logs = java.nio.file.Files.createDirectories(tmp.resolve("logs"));
    Path dir = LocalRepository.generate(tmp.resolve("gen"), repository, logs.resolve("gen.log"));
    return new GeneratedProject(
        dir, logs, Map.of("MVN", String.join(" ", LocalRepository.maven(repository))));
  }

  /** Runs the command in the project to its end; its output in {@code logs/log}. */
  Finished run(String log, String... command) throws InterruptedException {
    return Commands.run(dir, logs.resolve(log), env, List.of(command));
  }

  /** The same with more environment (KUBECONFIG). */
  Finished run(Map<String, String> more, String log, String... command)
      throws InterruptedException {
    return Commands.run(dir, logs.resolve(log), with(more), List.of(command));
  }

  /** Starts the command in a session of its own ({@link Commands#interrupt} stops it). */
  Process start(Map<String, String> more, String log, String... command) {
    return Commands.startInOwnSession(dir, logs.resolve(log), with(more), List.of(command));
  }

  Map<String, String> with(Map<String, String> more) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putAll(more);
    return all;
  }
}
