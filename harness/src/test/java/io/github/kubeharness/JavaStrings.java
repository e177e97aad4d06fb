package io.github.kubeharness;

import java.util.ArrayList;
import java.util.List;

/**
 * The string literals of a Java source file, as the program holds them: escapes read, text blocks
 * included, comments and char literals skipped, and literals joined by {@code +} alone (a long
 * message the formatter wrapped) joined into one.
 */
final class JavaStrings {

  private JavaStrings() {}

  static List<String> literals(String source) {
    List<String> literals = new ArrayList<>();
    int i = 0;
    int n = source.length();
    int lastEnd = -1;
    while (i < n) {
      char c = source.charAt(i);
      if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
        i = skipTo(source, i, "\n");
      } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
        i = skipTo(source, i + 2, "*/");
      } else if (c == '\'') {
        i = endOfQuoted(source, i, '\'');
      } else if (c == '"') {
        boolean textBlock = source.startsWith("\"\"\"", i);
        int end = textBlock ? skipTo(source, i + 3, "\"\"\"") : endOfQuoted(source, i, '"');
        String raw =
            textBlock
                ? source.substring(source.indexOf('\n', i) + 1, Math.max(i + 3, end - 3))
                : source.substring(i + 1, end - 1);
        String value = unescape(textBlock ? raw.stripIndent() : raw);
        if (lastEnd >= 0 && source.substring(lastEnd, i).strip().equals("+")) {
          literals.set(literals.size() - 1, literals.get(literals.size() - 1) + value);
        } else {
          literals.add(value);
        }
        lastEnd = end;
        i = end;
      } else {
        i++;
      }
    }
    return literals;
  }

  private static int skipTo(String source, int from, String end) {
    int at = source.indexOf(end, from);
    return at < 0 ? source.length() : at + end.length();
  }

  private static int endOfQuoted(String source, int open, char quote) {
    int i = open + 1;
    while (i < source.length() && source.charAt(i) != quote && source.charAt(i) != '\n') {
      i += source.charAt(i) == '\\' ? 2 : 1;
    }
    return Math.min(i + 1, source.length());
  }

  private static String unescape(String raw) {
    StringBuilder out = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\' || i + 1 == raw.length()) {
        out.append(c);
        continue;
      }
      char next = raw.charAt(++i);
      switch (next) {
        case 'n' -> out.append('\n');
        case 't' -> out.append('\t');
        case 'u' -> {
          String hex = raw.substring(i + 1, Math.min(i + 5, raw.length()));
          if (hex.matches("[0-9a-fA-F]{4}")) {
            out.append((char) Integer.parseInt(hex, 16));
            i += 4;
          }
        }
        case '\n' -> {} // a text block's line continuation
        default -> out.append(next);
      }
    }
    return out.toString();
  }
}
