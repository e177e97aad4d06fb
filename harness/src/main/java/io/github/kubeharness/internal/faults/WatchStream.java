package io.github.kubeharness.internal.faults;

import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * One watch the proxy relays as a WebSocket, with the messages from kube-apiserver it has not
 * delivered yet. A message is held when a hold matches it and queued behind any message held before
 * it: within one watch nothing is ever reordered, as the API guarantees.
 */
final class WatchStream {

  /** A message not delivered yet; {@code hold} the hold that stops it, null when only queued. */
  private record Queued(
      WebSocketFrames.Message message, WatchEvent event, WatchGate.Hold hold, boolean duplicate) {}

  private final RequestInfo request;
  private final long opened;
  private final WebSocketRelay.Relayed sockets;
  private final WatchGate gate;
  private final Deque<Queued> pending = new ArrayDeque<>();
  private Queued newest;
  private boolean scheduled;
  // The object events a schedule still delivers: those queued when it began. Later ones follow it.
  private int scheduledEvents;
  private boolean upstreamEnded;
  private boolean closed;

  WatchStream(RequestInfo request, long opened, WebSocketRelay.Relayed sockets, WatchGate gate) {
    this.request = request;
    this.opened = opened;
    this.sockets = sockets;
    this.gate = gate;
  }

  RequestInfo request() {
    return request;
  }

  /** Orders watches by what they watch, then by when they opened: the order a seed picks from. */
  static int compare(WatchStream a, WatchStream b) {
    int byRequest = a.request.toString().compareTo(b.request.toString());
    return byRequest != 0 ? byRequest : Long.compare(a.opened, b.opened);
  }

  /** A message from kube-apiserver: delivered now, or held or queued. */
  synchronized void offer(WebSocketFrames.Message message) {
    if (closed) {
      return;
    }
    WatchEvent event = message.control() ? null : WatchEvent.of(message.payload());
    WatchGate.Hold hold = event == null ? null : gate.holdFor(request.resource(), event);
    Queued queued = new Queued(message, event, hold, false);
    if (event != null && event.objectState()) {
      newest = queued;
    }
    if (hold != null) {
      gate.log("held      " + event.describe(request.resource()) + "  (" + hold + ")");
    }
    if (pending.isEmpty() && hold == null && !scheduled) {
      write(queued, false);
    } else {
      pending.addLast(queued);
    }
  }

  /** kube-apiserver ended the watch: the client sees the end after what is still queued. */
  synchronized void upstreamEnded() {
    upstreamEnded = true;
    if (pending.isEmpty()) {
      sockets.client().close();
    }
  }

  /** Delivers the queued messages up to the first one an active hold still stops. */
  synchronized void flush() {
    while (!scheduled && !pending.isEmpty() && !gate.active(pending.peekFirst().hold())) {
      write(pending.pollFirst(), true);
    }
    if (pending.isEmpty() && upstreamEnded) {
      sockets.client().close();
    }
  }

  /** Whether a message held by {@code hold} is queued here. */
  synchronized boolean holds(WatchGate.Hold hold) {
    return pending.stream().anyMatch(q -> q.hold() == hold);
  }

  synchronized int countHeldBy(WatchGate.Hold hold) {
    return (int) pending.stream().filter(q -> q.hold() == hold).count();
  }

  /** Takes the stream into (or out of) a schedule: meanwhile only {@link #step} delivers. */
  synchronized void scheduled(boolean scheduled) {
    this.scheduled = scheduled;
    scheduledEvents =
        scheduled
            ? (int)
                pending.stream().filter(q -> q.event() != null && q.event().objectState()).count()
            : 0;
    if (!scheduled) {
      flush();
    }
  }

  /**
   * Whether {@link #step} has an object event to deliver that no active hold stops (bookmarks and
   * control messages go along with the next one: the API server sends them when it likes).
   */
  synchronized boolean canStep() {
    if (scheduledEvents == 0) {
      return false;
    }
    for (Queued queued : pending) {
      if (gate.active(queued.hold())) {
        return false;
      }
      if (queued.event() != null && queued.event().objectState()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Delivers the next event (and control messages queued before it); returns what it delivered and
   * the write's completion.
   */
  synchronized Optional<Future<Void>> step(StringBuilder delivered) {
    Future<Void> written = null;
    while (!pending.isEmpty()) {
      Queued next = pending.pollFirst();
      written = write(next, false);
      if (next.event() != null && next.event().objectState()) {
        scheduledEvents--;
        delivered.append(next.event().describe(request.resource()));
        break;
      }
    }
    return Optional.ofNullable(written);
  }

  /**
   * Sends the newest object event again, behind what is queued, so it arrives as the newest the
   * client has: what a client sees of an object a re-list returns unchanged. False when this watch
   * delivered no object yet.
   */
  synchronized boolean duplicateNewest() {
    if (closed || newest == null) {
      return false;
    }
    Queued duplicate = new Queued(newest.message(), newest.event(), null, true);
    if (pending.isEmpty() && !scheduled) {
      write(duplicate, false);
    } else {
      pending.addLast(duplicate);
    }
    return true;
  }

  /**
   * Ends the watch now, as an API server does: what was queued is never delivered (the client
   * watches again from the last resourceVersion it saw and gets it then). Returns how many events
   * were dropped.
   */
  synchronized int end() {
    closed = true;
    int dropped = (int) pending.stream().filter(q -> q.event() != null).count();
    pending.clear();
    sockets.close();
    return dropped;
  }

  private Future<Void> write(Queued queued, boolean log) {
    if (queued.duplicate()) {
      gate.log("duplicated " + queued.event().describe(request.resource()));
    } else if (log && queued.event() != null) {
      gate.log("delivered " + queued.event().describe(request.resource()));
    }
    if (queued.event() != null && queued.event().objectState()) {
      gate.delivered(queued.event());
    }
    return sockets.client().write(queued.message().raw().copy());
  }
}
