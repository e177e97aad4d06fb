package io.github.kubeharness.internal.report;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code pods.txt}: the namespace's pods as {@code kubectl describe} would show what matters when a
 * test fails — phase, node, conditions, each container's state, restarts and last exit — and, for
 * every pod that is not Ready or whose containers restarted or failed, the last lines of each
 * container's log (and of its previous run). Pods only run on backends with a kubelet (kind); on
 * the others they stay Pending without a node, which the file says.
 */
final class PodStatus {

  /** What was found: the pods that are not healthy (for the summary) and the file's text. */
  record Result(int pods, List<String> unhealthy, String text) {}

  static final int LOG_LINES = 30;

  private PodStatus() {}

  static Result read(KubernetesClient admin, String namespace) {
    List<Pod> pods = new ArrayList<>(admin.pods().inNamespace(namespace).list().getItems());
    pods.sort(Comparator.comparing(p -> p.getMetadata().getName()));
    StringBuilder out = new StringBuilder();
    List<String> unhealthy = new ArrayList<>();
    if (pods.isEmpty()) {
      out.append("# no pods in namespace ").append(namespace).append('\n');
    }
    for (Pod pod : pods) {
      String name = pod.getMetadata().getName();
      String problem = problem(pod);
      if (problem != null) {
        unhealthy.add(name + ": " + problem);
      }
      describe(out, pod);
      if (problem != null) {
        logs(out, admin, namespace, pod);
      }
      out.append('\n');
    }
    return new Result(pods.size(), unhealthy, out.toString());
  }

  /** Why the pod is not healthy, or null: not Ready, a container waiting or failed, restarts. */
  static String problem(Pod pod) {
    if (pod.getStatus() == null || pod.getSpec().getNodeName() == null) {
      return null; // never scheduled: a backend without nodes, not the pod's fault
    }
    for (ContainerStatus c : containers(pod)) {
      if (c.getState() != null && c.getState().getWaiting() != null) {
        ContainerStateWaiting waiting = c.getState().getWaiting();
        return c.getName() + " " + waiting.getReason();
      }
      ContainerStateTerminated terminated =
          c.getState() == null ? null : c.getState().getTerminated();
      if (terminated != null && terminated.getExitCode() != 0) {
        return c.getName() + " exited " + terminated.getExitCode();
      }
      if (c.getRestartCount() != null && c.getRestartCount() > 0) {
        return c.getName() + " restarted " + c.getRestartCount() + "x";
      }
    }
    if ("Succeeded".equals(pod.getStatus().getPhase())) {
      return null;
    }
    for (PodCondition condition : conditions(pod)) {
      if ("Ready".equals(condition.getType()) && !"True".equals(condition.getStatus())) {
        return "not Ready"
            + (condition.getReason() == null ? "" : " (" + condition.getReason() + ")");
      }
    }
    return null;
  }

  private static void describe(StringBuilder out, Pod pod) {
    var status = pod.getStatus();
    out.append("Pod ")
        .append(pod.getMetadata().getName())
        .append("  phase=")
        .append(status == null ? "?" : status.getPhase())
        .append("  node=")
        .append(
            pod.getSpec().getNodeName() == null
                ? "(none: not scheduled; backends without a kubelet never run pods)"
                : pod.getSpec().getNodeName())
        .append(status == null || status.getPodIP() == null ? "" : "  ip=" + status.getPodIP())
        .append('\n');
    for (PodCondition c : conditions(pod)) {
      out.append("  condition ")
          .append(c.getType())
          .append('=')
          .append(c.getStatus())
          .append(c.getReason() == null ? "" : " (" + c.getReason() + ")")
          .append(c.getMessage() == null ? "" : ": " + ReportText.oneLine(c.getMessage(), 160))
          .append('\n');
    }
    for (ContainerStatus c : containers(pod)) {
      out.append("  container ")
          .append(c.getName())
          .append("  image=")
          .append(c.getImage())
          .append("  ready=")
          .append(c.getReady())
          .append("  restarts=")
          .append(c.getRestartCount())
          .append("  state=")
          .append(state(c))
          .append('\n');
      if (c.getLastState() != null && c.getLastState().getTerminated() != null) {
        ContainerStateTerminated last = c.getLastState().getTerminated();
        out.append("    last run: exited ")
            .append(last.getExitCode())
            .append(last.getReason() == null ? "" : " (" + last.getReason() + ")")
            .append('\n');
      }
    }
  }

  private static String state(ContainerStatus c) {
    if (c.getState() == null) {
      return "?";
    }
    if (c.getState().getRunning() != null) {
      return "running since " + c.getState().getRunning().getStartedAt();
    }
    if (c.getState().getWaiting() != null) {
      ContainerStateWaiting w = c.getState().getWaiting();
      return "waiting "
          + w.getReason()
          + (w.getMessage() == null ? "" : ": " + ReportText.oneLine(w.getMessage(), 160));
    }
    ContainerStateTerminated t = c.getState().getTerminated();
    return t == null ? "?" : "terminated, exit " + t.getExitCode() + " (" + t.getReason() + ")";
  }

  private static void logs(StringBuilder out, KubernetesClient admin, String namespace, Pod pod) {
    for (ContainerStatus c : containers(pod)) {
      boolean restarted = c.getRestartCount() != null && c.getRestartCount() > 0;
      if (restarted) {
        log(out, admin, namespace, pod, c.getName(), true);
      }
      log(out, admin, namespace, pod, c.getName(), false);
    }
  }

  private static void log(
      StringBuilder out,
      KubernetesClient admin,
      String namespace,
      Pod pod,
      String container,
      boolean previous) {
    out.append("  --- log of ")
        .append(container)
        .append(previous ? " (previous run)" : "")
        .append(", last ")
        .append(LOG_LINES)
        .append(" lines ---\n");
    try {
      var logs =
          admin
              .pods()
              .inNamespace(namespace)
              .withName(pod.getMetadata().getName())
              .inContainer(container);
      String text = (previous ? logs.terminated() : logs).tailingLines(LOG_LINES).getLog();
      if (text == null || text.isBlank()) {
        out.append("  (empty)\n");
      } else {
        text.lines().forEach(line -> out.append("  ").append(line).append('\n'));
      }
    } catch (RuntimeException e) {
      out.append("  (not readable: ")
          .append(ReportText.oneLine(String.valueOf(e.getMessage()), 160))
          .append(")\n");
    }
  }

  private static List<ContainerStatus> containers(Pod pod) {
    if (pod.getStatus() == null) {
      return List.of();
    }
    List<ContainerStatus> all = new ArrayList<>();
    if (pod.getStatus().getInitContainerStatuses() != null) {
      all.addAll(pod.getStatus().getInitContainerStatuses());
    }
    if (pod.getStatus().getContainerStatuses() != null) {
      all.addAll(pod.getStatus().getContainerStatuses());
    }
    return all;
  }

  private static List<PodCondition> conditions(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getConditions() == null
        ? List.of()
        : pod.getStatus().getConditions();
  }
}
