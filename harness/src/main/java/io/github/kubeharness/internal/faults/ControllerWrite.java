package io.github.kubeharness.internal.faults;

/**
 * One write the controllers made: {@code object} is its path without subresource ({@code
 * /api/v1/namespaces/ns/configmaps/c}; the collection's for a create), {@code status} the answer.
 */
public record ControllerWrite(
    String verb, String resource, String name, String object, int status) {

  /** Whether the API server took it (2xx): an injected or refused write changed nothing. */
  public boolean accepted() {
    return status >= 200 && status < 300;
  }

  /** E.g. {@code patch widgets/status w -> 200}. */
  @Override
  public String toString() {
    return verb + " " + resource + (name.isEmpty() ? "" : " " + name) + " -> " + status;
  }
}
