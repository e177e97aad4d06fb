package io.github.kubeharness.faults;

import java.util.List;

/**
 * The delivery of watch events to the controllers, under the test's control: hold the events of a
 * resource and release them later (the controller's informer cache falls behind), release what
 * different watches held in an order drawn from the test's seed, send an event again, end a watch.
 * Each is something a real API server can do to a client; none reorders the events of one watch.
 *
 * <pre>{@code
 * HeldEvents children = faults.watches().hold("configmaps");
 * client.resource(parent).create();            // the controller sees the parent, not its child
 * ...
 * faults.watches().releaseAll();               // both watches' events, in a seeded interleaving
 * }</pre>
 *
 * <p>From {@link Faults#watches()}: scoped like its {@code Faults} (a test's holds match objects in
 * its namespace and end with the test). Holds apply to the watches the controllers open through the
 * fault proxy as WebSockets, which is how fabric8 watches; see docs/races.md.
 */
public interface Watches {

  /**
   * From now on, holds back the events of {@code resource} (plural, {@code "configmaps"}) until
   * {@link HeldEvents#release()} or {@link #releaseAll()}: as a lagging watch cache or a slow
   * connection delays them. Later events of the same watch queue behind a held one, whatever they
   * are about.
   */
  HeldEvents hold(String resource);

  /** {@link #hold(String)} for the events of one object. */
  HeldEvents hold(String resource, String name);

  /**
   * Ends every hold of this scope and delivers what they held one event at a time, each step
   * picking which watch's next event goes first at random from {@link #seed()}; the order within
   * each watch stays. Returns the schedule: one line per event, in the order delivered (the same
   * for the same seed and the same held events).
   */
  List<String> releaseAll();

  /**
   * Sends the newest object event of each watch of {@code resource} again: the client sees the
   * object once more unchanged, as after a re-list. Returns how many watches did.
   */
  int duplicateNewest(String resource);

  /**
   * Ends the watches of {@code resource} now, as an API server may at any moment; what they held is
   * not delivered on them: the client watches again from the last resourceVersion it saw and gets
   * it then. Returns how many watches ended.
   */
  int end(String resource);

  /**
   * The seed of this test's random choices: the setting {@code kubeharness.seed} when set, else one
   * drawn for the test, printed when it fails.
   */
  long seed();
}
