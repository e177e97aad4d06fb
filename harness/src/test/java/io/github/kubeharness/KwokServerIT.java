package io.github.kubeharness;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.kubeharness.launch.ControlPlanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * KWOK's own server ({@code simulated} profile) is plain HTTP without authentication, so it must
 * offer another local user nothing: it listens on 127.0.0.1 only, and of its routes only {@code
 * /healthz} (the readiness probe) and {@code /metrics} (Go runtime figures) answer; exec, attach,
 * port-forward, container logs and {@code /debug/pprof} are switched off. Asked as the second local
 * user, with {@code /healthz} as the positive control that the port does answer it.
 */
class KwokServerIT {

  private static ControlPlane controlPlane;
  private static long kwok;
  private static String base;

  @BeforeAll
  static void start() throws Exception {
    controlPlane =
        ControlPlanes.local(
            ControlPlaneOptions.builder()
                .withBackend(Backend.LOCAL)
                .withProfile(Profile.SIMULATED)
                .build());
    controlPlane.start();
    Map<String, Long> pids = ComponentProcesses.of(controlPlane);
    kwok =
        pids.entrySet().stream()
            .filter(e -> e.getKey().startsWith("kwok"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no kwok process among " + pids))
            .getValue();
    String commandLine = Files.readString(Path.of("/proc", Long.toString(kwok), "cmdline"));
    base = "http://" + commandLine.replaceAll("(?s).*--server-address=([0-9.:]+).*", "$1").strip();
  }

  @AfterAll
  static void stop() {
    if (controlPlane != null) {
      controlPlane.close();
    }
  }

  @Test
  void itListensOnLoopbackOnly() throws Exception {
    List<String> addresses = Lockdown.listeningAddresses(kwok);
    assertThat(addresses).isNotEmpty();
    assertThat(base).startsWith("http://127.0.0.1:");
    // /proc/net/tcp writes 127.0.0.1 as 0100007F.
    assertThat(addresses).allSatisfy(a -> assertThat(a).startsWith("0100007F:"));
  }

  @Test
  void theSecondUserGetsHealthAndGoRuntimeMetricsOnly() {
    assertThat(Stranger.curl(base + "/healthz").output()).as("positive control").endsWith("\n200");
    String metrics = Stranger.curl(base + "/metrics").output();
    assertThat(metrics).endsWith("\n200");
    assertThat(metrics.lines().filter(l -> !l.isBlank() && !l.startsWith("#") && !l.equals("200")))
        .allSatisfy(l -> assertThat(l).matches("(go|process|promhttp)_.*"));
    for (String path :
        List.of(
            "/debug/pprof/",
            "/debug/pprof/goroutine?debug=2",
            "/debug/pprof/heap?debug=1",
            "/exec/default/p/c?command=id&output=1",
            "/attach/default/p/c?output=1",
            "/portForward/default/p",
            "/containerLogs/default/p/c",
            "/run/default/p/c",
            "/logs/")) {
      Stranger.Result answer = Stranger.curl(base + path);
      assertThat(answer.output())
          .as("%s as the second user", path)
          .containsAnyOf("disabled", "404 page not found")
          .doesNotContain("goroutine ", "heap profile", "unable to upgrade", "no logs found");
    }
  }
}
