package io.github.kubeharness.junit;

/** How long a test namespace lives. */
public enum NamespaceMode {
  /** A fresh namespace for every test method; controllers restart per test. Isolation first. */
  PER_TEST,
  /** One namespace and one set of running controllers for the whole test class. Faster. */
  PER_CLASS
}
