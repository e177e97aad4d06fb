package io.github.kubeharness.bench.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * controller-runtime's envtest, through {@code bench/peers/envtest} (a Go program built by {@code
 * make bench}) that times {@code envtest.Environment.Start()} with {@code KUBEBUILDER_ASSETS} at
 * the same binaries kube-harness runs, and prints one {@code START_MS <ms>} line per run.
 */
public final class EnvtestPeer {

  private EnvtestPeer() {}

  public static List<Double> startTimes(Path program, Path binaries, int runs)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(program)) {
      throw new IllegalStateException(
          program + " not found: make bench builds it (go build in bench/peers/envtest)");
    }
    Process process =
        new ProcessBuilder(
                program.toString(), "-assets", binaries.toString(), "-runs", Integer.toString(runs))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = process.waitFor();
    List<Double> samples = new ArrayList<>();
    out.lines()
        .filter(l -> l.startsWith("START_MS "))
        .forEach(l -> samples.add(Double.parseDouble(l.substring("START_MS ".length()).trim())));
    if (exit != 0 || samples.size() != runs) {
      throw new IllegalStateException(
          program + " exited " + exit + " with " + samples.size() + " of " + runs + " samples");
    }
    return samples;
  }
}
