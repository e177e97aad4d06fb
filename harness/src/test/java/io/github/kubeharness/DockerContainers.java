package io.github.kubeharness;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The machine's Docker containers, seen from the outside with {@code docker ps}. */
public final class DockerContainers {

  private DockerContainers() {}

  /** The ids of every container, running or not. */
  public static Set<String> ids() throws IOException, InterruptedException {
    Process ps = new ProcessBuilder("docker", "ps", "-aq", "--no-trunc").start();
    Set<String> ids =
        new HashSet<>(List.of(new String(ps.getInputStream().readAllBytes()).trim().split("\\s+")));
    ps.waitFor();
    ids.remove("");
    return ids;
  }
}
