package io.github.kubeharness;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The processes of a local control plane, found from the outside: this JVM's descendants whose
 * command line names the control plane's run directory, keyed by binary name ({@code etcd}, {@code
 * kube-apiserver}, {@code kube-controller-manager}).
 */
public final class ComponentProcesses {

  private ComponentProcesses() {}

  public static Map<String, Long> of(ControlPlane controlPlane) {
    String run = controlPlane.logDirectory().orElseThrow().toString();
    Map<String, Long> pids = new TreeMap<>();
    ProcessHandle.current()
        .descendants()
        .filter(p -> p.info().commandLine().map(line -> line.contains(run)).orElse(false))
        .forEach(
            p ->
                pids.put(
                    Path.of(p.info().command().orElse("?")).getFileName().toString(), p.pid()));
    return pids;
  }
}
