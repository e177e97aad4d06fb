package io.github.kubeharness.internal.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The watch gate's frame reader: messages come out whole and byte for byte, however the stream is
 * cut, with each length encoding, masked or not, fragmented or not.
 */
class WebSocketFramesTest {

  @Test
  void everyLengthEncodingIsReadWholeHoweverTheBytesArrive() {
    Buffer small = frame(true, 1, text(100), null);
    Buffer medium = frame(true, 1, text(300), null);
    Buffer large = frame(true, 2, text(70_000), null);
    Buffer stream = Buffer.buffer().appendBuffer(small).appendBuffer(medium).appendBuffer(large);

    for (int chunk : new int[] {1, 7, 126, 4096, stream.length()}) {
      List<WebSocketFrames.Message> messages = read(stream, chunk);

      assertThat(messages).extracting(m -> m.payload().length()).containsExactly(100, 300, 70_000);
      assertThat(messages)
          .extracting(WebSocketFrames.Message::raw)
          .containsExactly(small, medium, large);
    }
  }

  @Test
  void aFragmentedMessageIsOneMessageAndAControlFrameInsideItPassesAlone() {
    Buffer first = frame(false, 1, "{\"type\":", null);
    Buffer ping = frame(true, 9, "", null);
    Buffer last = frame(true, 0, "\"ADDED\"}", null);
    Buffer stream = Buffer.buffer().appendBuffer(first).appendBuffer(ping).appendBuffer(last);

    List<WebSocketFrames.Message> messages = read(stream, 3);

    assertThat(messages).hasSize(2);
    assertThat(messages.get(0).control()).isTrue();
    assertThat(messages.get(1).opcode()).isEqualTo(1);
    assertThat(messages.get(1).payload().toString()).isEqualTo("{\"type\":\"ADDED\"}");
    assertThat(messages.get(1).raw())
        .isEqualTo(Buffer.buffer().appendBuffer(first).appendBuffer(last));
  }

  @Test
  void aMaskedFrameIsUnmaskedForReadingAndKeptAsSent() {
    Buffer masked = frame(true, 1, "{\"type\":\"DELETED\"}", new byte[] {1, 2, 3, 4});

    List<WebSocketFrames.Message> messages = read(masked, 5);

    assertThat(messages.get(0).payload().toString()).isEqualTo("{\"type\":\"DELETED\"}");
    assertThat(messages.get(0).raw()).isEqualTo(masked);
  }

  private static List<WebSocketFrames.Message> read(Buffer stream, int chunk) {
    List<WebSocketFrames.Message> messages = new ArrayList<>();
    WebSocketFrames frames = new WebSocketFrames(messages::add);
    for (int at = 0; at < stream.length(); at += chunk) {
      frames.feed(stream.getBuffer(at, Math.min(stream.length(), at + chunk)));
    }
    return messages;
  }

  private static String text(int length) {
    return "x".repeat(length);
  }

  private static Buffer frame(boolean fin, int opcode, String payload, byte[] mask) {
    byte[] data = payload.getBytes(StandardCharsets.UTF_8);
    Buffer frame = Buffer.buffer().appendByte((byte) ((fin ? 0x80 : 0) | opcode));
    int maskBit = mask == null ? 0 : 0x80;
    if (data.length < 126) {
      frame.appendByte((byte) (maskBit | data.length));
    } else if (data.length <= 0xffff) {
      frame.appendByte((byte) (maskBit | 126)).appendUnsignedShort(data.length);
    } else {
      frame.appendByte((byte) (maskBit | 127)).appendLong(data.length);
    }
    if (mask != null) {
      frame.appendBytes(mask);
      for (int i = 0; i < data.length; i++) {
        data[i] ^= mask[i % 4];
      }
    }
    return frame.appendBytes(data);
  }
}
