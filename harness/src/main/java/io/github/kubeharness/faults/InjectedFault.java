package io.github.kubeharness.faults;

/** A {@link FaultRule} in force: how often it struck, and a way to end it before the test does. */
public interface InjectedFault {

  /** How many requests the rule answered or delayed so far. */
  int hits();

  /** Ends the rule; requests it would have matched pass again. */
  void remove();
}
