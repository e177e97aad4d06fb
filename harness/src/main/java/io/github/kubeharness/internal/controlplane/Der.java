package io.github.kubeharness.internal.controlplane;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The few ASN.1 DER encodings an X.509 certificate and a SEC1 private key need, written by hand so
 * that making the run's certificates loads no security library: BouncyCastle's signed jars cost a
 * cold JVM half a second of verification and class loading on the start path (measured with JFR).
 * Each method returns one complete encoding (tag, length, content).
 */
final class Der {

  private Der() {}

  static byte[] sequence(byte[]... items) {
    return tagged(0x30, concat(items));
  }

  static byte[] set(byte[]... items) {
    return tagged(0x31, concat(items));
  }

  static byte[] integer(BigInteger value) {
    return tagged(0x02, value.toByteArray());
  }

  static byte[] bool(boolean value) {
    return tagged(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
  }

  static byte[] octetString(byte[] content) {
    return tagged(0x04, content);
  }

  /** A BIT STRING of whole bytes. */
  static byte[] bitString(byte[] content) {
    return bitString(content, 0);
  }

  static byte[] bitString(byte[] content, int unusedBits) {
    byte[] body = new byte[content.length + 1];
    body[0] = (byte) unusedBits;
    System.arraycopy(content, 0, body, 1, content.length);
    return tagged(0x03, body);
  }

  static byte[] utf8(String text) {
    return tagged(0x0c, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * UTCTime, {@code YYMMDDHHMMSSZ}. By hand, not with a {@code DateTimeFormatter}: in a fresh JVM
   * the formatter's classes cost a start tens of milliseconds before etcd can be launched.
   */
  static byte[] utcTime(Instant time) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(time.getEpochSecond(), 0, ZoneOffset.UTC);
    int[] fields = {
      t.getYear() % 100,
      t.getMonthValue(),
      t.getDayOfMonth(),
      t.getHour(),
      t.getMinute(),
      t.getSecond()
    };
    byte[] text = new byte[13];
    for (int i = 0; i < fields.length; i++) {
      text[2 * i] = (byte) ('0' + fields[i] / 10);
      text[2 * i + 1] = (byte) ('0' + fields[i] % 10);
    }
    text[12] = 'Z';
    return tagged(0x17, text);
  }

  /** {@code [n] EXPLICIT}: the item inside a constructed context tag. */
  static byte[] explicit(int n, byte[] item) {
    return tagged(0xa0 | n, item);
  }

  /** {@code [n] IMPLICIT} of a primitive type: the content under a context tag. */
  static byte[] implicit(int n, byte[] content) {
    return tagged(0x80 | n, content);
  }

  static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      long arc = Long.parseLong(arcs[i]);
      int groups = Math.max(1, (64 - Long.numberOfLeadingZeros(arc) + 6) / 7);
      for (int g = groups - 1; g >= 0; g--) {
        int seven = (int) ((arc >>> (7 * g)) & 0x7f);
        out.write(g == 0 ? seven : seven | 0x80);
      }
    }
    return tagged(0x06, out.toByteArray());
  }

  static byte[] tagged(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 4);
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else if (length < 0x100) {
      out.write(0x81);
      out.write(length);
    } else {
      out.write(0x82);
      out.write(length >>> 8);
      out.write(length & 0xff);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
