package io.github.kubeharness.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of one {@code make bench} run: medians and p90s of samples, single values, and the
 * peers' ratios; checked against {@link Targets}; written as {@code target/bench/results.json}
 * (flat name/number pairs, the names stable) and {@code results.md} (the README's tables).
 */
final class BenchResults {

  private final Map<String, Double> results = new LinkedHashMap<>();
  private final Map<String, Integer> sampleCounts = new LinkedHashMap<>();
  private final Map<String, String> notMeasured = new LinkedHashMap<>();

  /**
   * Writes {@code started-at} in {@code directory} before a run: results there older than it are
   * from a run that did not finish, and {@code make bench-readme} refuses them.
   */
  static void markStart(Path directory) throws Exception {
    Files.createDirectories(directory);
    Files.writeString(directory.resolve("started-at"), java.time.Instant.now() + "\n");
  }

  /** A figure that could not be taken, with the reason (printed now, and again by the checks). */
  void notMeasured(String name, String reason) {
    notMeasured.put(name, reason);
    System.out.println(name + ": not measured: " + reason);
  }

  /**
   * True when every peer of {@link Targets#PEER_RATIOS} was measured; otherwise prints each one
   * missing with its reason. The smoke run's only check: its one sample proves nothing about a
   * target, but a peer that no longer runs is what it is there to catch.
   */
  boolean checkPeersMeasured() {
    boolean all = true;
    for (Targets.PeerRatio ratio : Targets.PEER_RATIOS) {
      for (String name : List.of(ratio.peer(), ratio.ours())) {
        if (!results.containsKey(name)) {
          all = false;
          System.out.println(
              "NOT MEASURED "
                  + name
                  + ": "
                  + notMeasured.getOrDefault(name, "no scenario recorded it"));
        }
      }
    }
    System.out.println(
        all ? "every peer measured" : "PEERS NOT MEASURED: see NOT MEASURED lines above");
    return all;
  }

  /** Median as {@code name}, p90 as {@code name} with {@code _ms} → {@code _p90_ms}. */
  void record(String name, List<Double> samples) {
    sampleCounts.put(name, samples.size());
    List<Double> sorted = new ArrayList<>(samples);
    Collections.sort(sorted);
    double median = sorted.get(sorted.size() / 2);
    results.put(name, round(median));
    results.put(
        p90Name(name),
        round(sorted.get((int) Math.min(sorted.size() - 1, Math.ceil(sorted.size() * 0.9) - 1))));
    System.out.printf(
        "%-44s median %8.1f  (n=%d, min %.1f, max %.1f)%n",
        name, median, sorted.size(), sorted.get(0), sorted.get(sorted.size() - 1));
  }

  /** One figure that is not a distribution (a memory total, a ratio of two medians). */
  void value(String name, double value) {
    sampleCounts.put(name, 1);
    results.put(name, round(value));
    System.out.printf("%-44s %8.1f%n", name, value);
  }

  Double get(String name) {
    return results.get(name);
  }

  private static String p90Name(String name) {
    return name.endsWith("_ms") ? name.replace("_ms", "_p90_ms") : name + "_p90";
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }

  /** Prints each figure beside its target; false when one misses. */
  boolean checkTargets() {
    boolean allMet = true;
    for (Map.Entry<String, Double> target : Targets.MEDIAN_MAX.entrySet()) {
      Double median = results.get(target.getKey());
      Double p90 = results.get(p90Name(target.getKey()));
      boolean met = median != null && median <= target.getValue();
      allMet &= met;
      System.out.printf(
          "%-4s %-44s median %s, p90 %s, target <= %.1f%s%n",
          met ? "ok" : "MISS",
          target.getKey(),
          median,
          p90,
          target.getValue(),
          p90 != null && p90 > target.getValue() ? " (p90 over target)" : "");
    }
    for (Targets.PeerRatio ratio : Targets.PEER_RATIOS) {
      Double value = ratio(ratio);
      boolean met = value != null && value >= ratio.atLeast();
      allMet &= met;
      System.out.printf(
          "%-4s %-44s %s ÷ %s = %s, target >= %.1f%n",
          met ? "ok" : "MISS", ratio.peer(), ratio.peer(), ratio.ours(), value, ratio.atLeast());
    }
    System.out.println(allMet ? "all targets met" : "TARGETS MISSED: see MISS lines above");
    return allMet;
  }

  private Double ratio(Targets.PeerRatio ratio) {
    Double peer = results.get(ratio.peer());
    Double ours = results.get(ratio.ours());
    return peer == null || ours == null ? null : round(peer / ours);
  }

  void write(Path directory) throws Exception {
    Path dir = Files.createDirectories(directory);
    StringBuilder json = new StringBuilder("{\n");
    List<String> names = new ArrayList<>(results.keySet());
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      json.append("  \"")
          .append(n)
          .append("\": ")
          .append(results.get(n))
          .append(i < names.size() - 1 ? ",\n" : "\n");
    }
    json.append("}\n");
    Files.writeString(dir.resolve("results.json"), json);
    Files.writeString(dir.resolve("results.md"), markdown());
    System.out.println("wrote " + dir.resolve("results.json") + " and results.md");
  }

  /** The README's Performance tables: `make bench-readme` copies them there. */
  private String markdown() {
    StringBuilder md =
        new StringBuilder("`make bench` on ")
            .append(LocalDate.now(ZoneOffset.UTC))
            .append(", ")
            .append(Runtime.getRuntime().availableProcessors())
            .append(" cores, Java ")
            .append(System.getProperty("java.version"))
            .append(
                " (figures in ms unless the name says otherwise):\n\n"
                    + "| measure | median | p90 | n | target (median) |\n|---|---|---|---|---|\n");
    for (String n : results.keySet()) {
      if (n.contains("_p90")) {
        continue;
      }
      Double target = Targets.MEDIAN_MAX.get(n);
      Double p90 = results.get(p90Name(n));
      md.append("| `")
          .append(n)
          .append("` | ")
          .append(results.get(n))
          .append(" | ")
          .append(p90 == null ? "—" : p90)
          .append(" | ")
          .append(sampleCounts.get(n))
          .append(" | ")
          .append(
              target == null
                  ? "—"
                  : "≤ "
                      + (target == Math.rint(target) ? "" + target.intValue() : "" + target)
                      + (results.get(n) <= target ? "" : " **missed**")
                      + (p90 != null && p90 > target ? " (p90 over)" : ""))
          .append(" |\n");
    }
    md.append("\nThe peers, measured in the same run on the same binaries and machine:\n\n")
        .append("| peer | its median | kube-harness | ratio (peer ÷ kube-harness) | target |\n")
        .append("|---|---|---|---|---|\n");
    for (Targets.PeerRatio ratio : Targets.PEER_RATIOS) {
      Double value = ratio(ratio);
      md.append("| `")
          .append(ratio.peer())
          .append("` | ")
          .append(results.get(ratio.peer()))
          .append(" | `")
          .append(ratio.ours())
          .append("` ")
          .append(results.get(ratio.ours()))
          .append(" | ")
          .append(value == null ? "not measured" : value + "×")
          .append(" | ≥ ")
          .append(ratio.atLeast())
          .append("×")
          .append(value != null && value >= ratio.atLeast() ? "" : " **missed**")
          .append(" |\n");
    }
    return md.toString();
  }
}
