package io.github.kubeharness.cli;

import io.github.kubeharness.Backend;
import io.github.kubeharness.NetworkMode;
import io.github.kubeharness.Profile;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The capability tables of docs/backends.md, generated from what {@link Backend} and {@link
 * Profile} declare ({@code kube-harness env --capabilities}): the docs cannot promise a combination
 * the up-front check refuses.
 */
public final class CapabilityMatrix {

  private CapabilityMatrix() {}

  /** Both tables: backends by profile and feature, then profiles by component. */
  public static String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("| backend |");
    for (Profile profile : Profile.values()) {
      out.append(" `").append(profile.settingValue()).append("` |");
    }
    for (Backend.Feature feature : Backend.Feature.values()) {
      out.append(' ').append(feature.label()).append(" |");
    }
    out.append(" profile when none is asked |\n|---|");
    out.append("---|".repeat(Profile.values().length + Backend.Feature.values().length + 1));
    out.append('\n');
    for (Backend backend : Backend.values()) {
      if (backend == Backend.AUTO) {
        continue;
      }
      out.append("| `").append(backend.settingValue()).append("` |");
      for (Profile profile : Profile.values()) {
        out.append(backend.profiles().contains(profile) ? " yes |" : " — |");
      }
      for (Backend.Feature feature : Backend.Feature.values()) {
        out.append(' ').append(cell(backend, feature)).append(" |");
      }
      out.append(" `").append(backend.defaultProfile().settingValue()).append("` |\n");
    }
    out.append('\n').append("| profile |");
    for (Profile.Component component : Profile.Component.values()) {
      out.append(' ').append(component.binaryName()).append(" |");
    }
    out.append("\n|---|").append("---|".repeat(Profile.Component.values().length)).append('\n');
    for (Profile profile : Profile.values()) {
      out.append("| `").append(profile.settingValue()).append("` |");
      out.append(
          Arrays.stream(Profile.Component.values())
              .map(c -> profile.runs(c) ? " yes |" : " — |")
              .collect(Collectors.joining()));
      out.append('\n');
    }
    return out.toString();
  }

  private static String cell(Backend backend, Backend.Feature feature) {
    if (backend.supports(feature, NetworkMode.BRIDGE)) {
      return "yes";
    }
    return backend.supports(feature, NetworkMode.HOST) ? "network `host` only" : "—";
  }
}
