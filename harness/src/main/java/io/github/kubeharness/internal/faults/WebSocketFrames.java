package io.github.kubeharness.internal.faults;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Cuts the byte stream of one WebSocket direction into messages (RFC 6455 frames, a fragmented
 * message kept whole), each with its bytes exactly as they came, so the watch gate can hold,
 * reorder across watches and resend them without re-encoding anything. kube-apiserver sends one
 * watch event per message.
 */
final class WebSocketFrames {

  /**
   * One message as sent: {@code raw} the frames' bytes, {@code payload} the unmasked data of its
   * data frames; {@code control} for ping, pong and close frames.
   */
  record Message(Buffer raw, Buffer payload, int opcode) {
    boolean control() {
      return opcode >= 8;
    }

    boolean close() {
      return opcode == 8;
    }
  }

  private final Consumer<Message> messages;
  private Buffer pending = Buffer.buffer();
  // The frames of a fragmented data message read so far.
  private final List<Buffer> fragments = new ArrayList<>();
  private Buffer fragmentPayload = Buffer.buffer();
  private int fragmentOpcode;

  WebSocketFrames(Consumer<Message> messages) {
    this.messages = messages;
  }

  /** Reads {@code bytes}; hands every message completed by them on, in order. */
  void feed(Buffer bytes) {
    pending.appendBuffer(bytes);
    int offset = 0;
    while (true) {
      int frameLength = frameLength(offset);
      if (frameLength < 0) {
        break;
      }
      frame(pending.getBuffer(offset, offset + frameLength));
      offset += frameLength;
    }
    pending = pending.getBuffer(offset, pending.length());
  }

  /** The length of the frame at {@code offset}, or -1 when it has not all arrived. */
  private int frameLength(int offset) {
    int available = pending.length() - offset;
    if (available < 2) {
      return -1;
    }
    int second = pending.getUnsignedByte(offset + 1);
    long length = second & 0x7f;
    int header = 2;
    if (length == 126) {
      if (available < 4) {
        return -1;
      }
      length = pending.getUnsignedShort(offset + 2);
      header = 4;
    } else if (length == 127) {
      if (available < 10) {
        return -1;
      }
      length = pending.getLong(offset + 2);
      header = 10;
    }
    if ((second & 0x80) != 0) {
      header += 4;
    }
    long total = header + length;
    if (total > Integer.MAX_VALUE) {
      throw new IllegalStateException("a WebSocket frame of " + length + " bytes");
    }
    return available < total ? -1 : (int) total;
  }

  private void frame(Buffer frame) {
    int first = frame.getUnsignedByte(0);
    boolean fin = (first & 0x80) != 0;
    int opcode = first & 0x0f;
    Buffer payload = payload(frame);
    if (opcode >= 8) {
      messages.accept(new Message(frame, payload, opcode));
      return;
    }
    if (opcode != 0) {
      fragmentOpcode = opcode;
    }
    fragments.add(frame);
    fragmentPayload.appendBuffer(payload);
    if (fin) {
      Buffer raw = Buffer.buffer();
      fragments.forEach(raw::appendBuffer);
      messages.accept(new Message(raw, fragmentPayload, fragmentOpcode));
      fragments.clear();
      fragmentPayload = Buffer.buffer();
    }
  }

  private static Buffer payload(Buffer frame) {
    int second = frame.getUnsignedByte(1);
    int length7 = second & 0x7f;
    int header = length7 == 126 ? 4 : length7 == 127 ? 10 : 2;
    if ((second & 0x80) == 0) {
      return frame.getBuffer(header, frame.length());
    }
    byte[] mask = frame.getBytes(header, header + 4);
    byte[] data = frame.getBytes(header + 4, frame.length());
    for (int i = 0; i < data.length; i++) {
      data[i] ^= mask[i % 4];
    }
    return Buffer.buffer(data);
  }
}
