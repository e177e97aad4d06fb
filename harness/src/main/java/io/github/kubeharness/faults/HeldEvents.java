package io.github.kubeharness.faults;

/** A hold in force ({@link Watches#hold}): what it holds back and how to let it go. */
public interface HeldEvents {

  /** How many events it holds back now. */
  int count();

  /**
   * Ends the hold: its events are delivered, in their order, up to the next event another hold
   * stops. Releasing holds one after another delivers their watches in that order.
   */
  void release();
}
