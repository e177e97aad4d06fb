package io.github.kubeharness.internal.faults;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The proxy's control over watch delivery: the watches it relays, the holds in force, and the
 * schedules that release held events of different watches in a seeded order.
 */
final class WatchGate {

  /**
   * A pause between two events of a schedule. Each watch is its own connection, read by the client
   * on its own thread: written back to back, two events of different watches could still be handled
   * in either order; spaced, they are handled in the order written.
   */
  static final long STEP_MILLIS = 50;

  /** The first word of each line the gate logs. */
  static final List<String> WORDS =
      List.of("holding", "held", "released", "schedule", "delivered", "duplicated", "ended");

  /** Holds the events of {@code resource} (in {@code namespace}, of {@code name}; null: any). */
  final class Hold {
    private final int number;
    private final String scope;
    private final String resource;
    private final String namespace;
    private final String name;

    private Hold(int number, String scope, String resource, String namespace, String name) {
      this.number = number;
      this.scope = scope;
      this.resource = resource;
      this.namespace = namespace;
      this.name = name;
    }

    boolean matches(String eventResource, WatchEvent event) {
      return resource.equals(eventResource)
          && (namespace == null || namespace.equals(event.namespace()))
          && (name == null || name.equals(event.name()));
    }

    int count() {
      return streams.stream().mapToInt(s -> s.countHeldBy(this)).sum();
    }

    void release() {
      if (holds.remove(this)) {
        log("released  " + this);
        streams.forEach(WatchStream::flush);
      }
    }

    @Override
    public String toString() {
      return "hold "
          + number
          + " of "
          + resource
          + (namespace == null ? "" : " in " + namespace)
          + (name == null ? "" : " named " + name);
    }
  }

  private final Consumer<String> log;
  private final Consumer<WatchEvent> delivered;
  private final Set<WatchStream> streams = ConcurrentHashMap.newKeySet();
  private final List<Hold> holds = new CopyOnWriteArrayList<>();
  private final AtomicInteger numbers = new AtomicInteger();
  private final AtomicLong opened = new AtomicLong();

  /** {@code delivered}: told of each object event handed to a client. */
  WatchGate(Consumer<String> log, Consumer<WatchEvent> delivered) {
    this.log = log;
    this.delivered = delivered;
  }

  void log(String line) {
    log.accept(line);
  }

  void delivered(WatchEvent event) {
    delivered.accept(event);
  }

  /**
   * Takes over the delivery of a relayed watch: kube-apiserver's messages go through the gate.
   * Returns what to run when the client's socket closes.
   */
  Runnable relay(RequestInfo request, WebSocketRelay.Relayed sockets) {
    WatchStream stream = new WatchStream(request, opened.incrementAndGet(), sockets, this);
    streams.add(stream);
    WebSocketFrames frames = new WebSocketFrames(stream::offer);
    sockets.upstream().handler(frames::feed);
    sockets.upstream().endHandler(ended -> stream.upstreamEnded());
    sockets.upstream().resume();
    return () -> streams.remove(stream);
  }

  Hold hold(String scope, String resource, String namespace, String name) {
    Hold hold = new Hold(numbers.incrementAndGet(), scope, resource, namespace, name);
    holds.add(hold);
    log("holding   " + hold);
    return hold;
  }

  /** The first hold in force that stops {@code event}, or null. */
  Hold holdFor(String resource, WatchEvent event) {
    for (Hold hold : holds) {
      if (hold.matches(resource, event)) {
        return hold;
      }
    }
    return null;
  }

  boolean active(Hold hold) {
    return hold != null && holds.contains(hold);
  }

  /**
   * Ends the holds of {@code scope} (every hold when null) and delivers what they held, choosing at
   * each step with {@code random} which watch's next event goes first; returns the schedule.
   */
  List<String> interleave(String scope, SplittableRandom random, long seed) {
    List<Hold> ending = holds.stream().filter(h -> scope == null || scope.equals(h.scope)).toList();
    List<WatchStream> involved =
        streams.stream().filter(s -> ending.stream().anyMatch(s::holds)).toList();
    // In a fixed order, so the same seed picks the same watches (the set's own order is not).
    List<WatchStream> ordered = new ArrayList<>(involved);
    ordered.sort(WatchStream::compare);
    ordered.forEach(s -> s.scheduled(true));
    holds.removeAll(ending);
    log(
        "schedule  seed "
            + seed
            + ": "
            + ending.size()
            + " hold"
            + (ending.size() == 1 ? "" : "s")
            + " over "
            + ordered.size()
            + " watch"
            + (ordered.size() == 1 ? "" : "es"));
    List<String> schedule = new ArrayList<>();
    try {
      while (true) {
        List<WatchStream> ready = ordered.stream().filter(WatchStream::canStep).toList();
        if (ready.isEmpty()) {
          break;
        }
        WatchStream next = ready.get(ready.size() == 1 ? 0 : random.nextInt(ready.size()));
        StringBuilder delivered = new StringBuilder();
        Optional<Future<Void>> written = next.step(delivered);
        String line = "step " + (schedule.size() + 1) + "  " + delivered;
        schedule.add(line);
        log("delivered " + delivered + "  (" + line.substring(0, line.indexOf("  ")) + ")");
        written.ifPresent(WatchGate::await);
        pause();
      }
    } finally {
      ordered.forEach(s -> s.scheduled(false));
    }
    return schedule;
  }

  /** Resends the newest event of each watch of {@code resource} in scope; returns how many. */
  int duplicateNewest(String scopeNamespace, String resource) {
    int count = 0;
    for (WatchStream stream : inScope(scopeNamespace, resource)) {
      if (stream.duplicateNewest()) {
        count++;
      }
    }
    return count;
  }

  /** Ends the watches of {@code resource} in scope; returns how many. */
  int end(String scopeNamespace, String resource) {
    List<WatchStream> ending = inScope(scopeNamespace, resource);
    for (WatchStream stream : ending) {
      int dropped = stream.end();
      streams.remove(stream);
      log(
          "ended     "
              + stream.request()
              + (dropped == 0
                  ? ""
                  : " (" + dropped + " undelivered: sent again on the new watch)"));
    }
    return ending.size();
  }

  /** Ends the holds of {@code scope} without delivering in a schedule (the test is over). */
  void clear(String scope) {
    holds.stream().filter(h -> scope == null || scope.equals(h.scope)).forEach(Hold::release);
  }

  private List<WatchStream> inScope(String namespace, String resource) {
    return streams.stream()
        .filter(s -> s.request().resource().equals(resource))
        .filter(
            s ->
                namespace == null
                    || namespace.equals(s.request().namespace())
                    || s.request().namespace().isEmpty())
        .sorted(WatchStream::compare)
        .toList();
  }

  private static void await(Future<Void> written) {
    try {
      written.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // The client went away: the schedule goes on with the other watches.
    }
  }

  private static void pause() {
    try {
      Thread.sleep(STEP_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
