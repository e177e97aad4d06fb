package io.github.kubeharness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The text the harness can print: every string literal of the main sources (and of the scripts the
 * build runs), so that a message quoted in the docs can be found in them. A message is assembled
 * from literals and values ({@code "crds entry '" + entry + "' does not exist"}), so a quoted
 * message matches when it reads as literals with values between them: a value (a gap) may only
 * stand where one literal ends and the next begins; the quote may start inside a literal and end
 * inside one (it is a fragment), and {@code ...} or {@code …} in the quote stand for what it leaves
 * out. Values are names, paths and numbers: a run of three words or more that has to be read as a
 * value is wording no source has, and so is a quote that is mostly values of several words. (Limit:
 * one changed word right beside a value can be read as part of that value, and pass.)
 */
final class SourceLiterals {

  private static final char SEP = '\u0001';
  // printf-style and SLF4J placeholders are where values go, as a concatenation's variables are.
  private static final Pattern PLACEHOLDER =
      Pattern.compile("%[-#+ 0,(]*\\d*(?:\\.\\d+)?[a-zA-Z%]|\\{}|\\n");
  // Shell scripts print with echo/printf: their quoted text, split where a variable is expanded.
  private static final Pattern SHELL_BREAK =
      Pattern.compile("\\$\\{[^}]*}|\\$\\([^)]*\\)|\\$\\w+|[\"']");
  // The share of a quote's letters that may be values of several words (names are one).
  private static final double MAX_WORDING_SHARE = 0.3;
  // A value of this many words is wording that no literal holds (`kind + " " + name` is two).
  private static final int MAX_VALUE_WORDS = 3;
  // A literal shorter than this (", ", "'") joins values but proves nothing about the wording.
  private static final int PROVING_LENGTH = 10;

  private final Set<String> literals = new HashSet<>();
  private final String corpus;

  SourceLiterals(List<Path> javaFiles, List<Path> scripts) {
    for (Path file : javaFiles) {
      JavaStrings.literals(ProjectSources.read(file)).forEach(this::add);
    }
    for (Path script : scripts) {
      for (String line : ProjectSources.read(script).split("\n")) {
        for (String piece : SHELL_BREAK.split(line)) {
          add(piece);
        }
      }
    }
    StringBuilder all = new StringBuilder().append(SEP);
    for (String literal : literals) {
      all.append(literal).append(SEP);
    }
    corpus = all.toString();
  }

  private void add(String literal) {
    for (String piece : PLACEHOLDER.split(literal, -1)) {
      String normal = normalize(piece);
      if (!normal.isBlank()) {
        literals.add(normal);
      }
    }
  }

  /** Runs of white space as one space: a doc wraps lines where the source does not. */
  static String normalize(String text) {
    return text.replaceAll("\\s+", " ");
  }

  /**
   * Why {@code quote} cannot be a message of the sources, or null when it can: the parts that would
   * have to be values are too much of it, and they are named.
   */
  String whyNot(String quote) {
    List<String> values = new ArrayList<>();
    int letters = 0;
    for (String segment : normalize(quote).split("\\.\\.\\.|…")) {
      if (!segment.isBlank()) {
        values.addAll(cover(segment.strip()));
        letters += letters(segment);
      }
    }
    for (String value : values) {
      if (value.split(" ").length >= MAX_VALUE_WORDS) {
        return "no source writes \"" + value + "\" (read as literals, it would be one value)";
      }
    }
    int valueLetters = values.stream().mapToInt(SourceLiterals::letters).sum();
    int wordingLetters =
        values.stream().filter(v -> v.contains(" ")).mapToInt(SourceLiterals::letters).sum();
    if (letters - valueLetters < PROVING_LENGTH || wordingLetters > MAX_WORDING_SHARE * letters) {
      return "no source writes it; read as literals, it would be values: " + values;
    }
    return null;
  }

  /**
   * The cheapest reading of {@code text} as literals and values (cost: the letters read as values,
   * see {@link #valueCost}, or covered only by literals too short to prove anything), by dynamic
   * programming over positions and whether the last piece was a value (two values in a row are
   * one).
   */
  private List<String> cover(String text) {
    int n = text.length();
    int[][] cost = new int[n + 1][2];
    int[][] from = new int[n + 1][2];
    for (int[] row : cost) {
      java.util.Arrays.fill(row, Integer.MAX_VALUE);
    }
    cost[0][0] = 0;
    for (int p = 0; p < n; p++) {
      for (int state = 0; state < 2; state++) {
        if (cost[p][state] == Integer.MAX_VALUE) {
          continue;
        }
        for (int q = p + 1; q <= n; q++) {
          String piece = text.substring(p, q);
          if (isLiteralPiece(piece, p == 0, q == n) && !cutsAWord(text, p, q)) {
            int c = cost[p][state] + (piece.strip().length() < PROVING_LENGTH ? letters(piece) : 0);
            relax(cost, from, q, 0, c, p * 2 + state);
          }
          if (state == 0) {
            relax(cost, from, q, 1, cost[p][state] + valueCost(piece), p * 2 + state);
          }
        }
      }
    }
    int end = cost[n][0] <= cost[n][1] ? 0 : 1;
    List<String> values = new ArrayList<>();
    int q = n;
    int state = end;
    while (q > 0) {
      int back = from[q][state];
      if (state == 1) {
        values.add(0, text.substring(back / 2, q).strip());
      }
      q = back / 2;
      state = back % 2;
    }
    return values;
  }

  private static void relax(int[][] cost, int[][] from, int q, int state, int c, int back) {
    if (c < cost[q][state]) {
      cost[q][state] = c;
      from[q][state] = back;
    }
  }

  /**
   * Whether a short literal would be read out of the middle of a word ("d" of "did"): a short
   * literal joins values at word boundaries; read inside words, any text is short literals.
   */
  private static boolean cutsAWord(String text, int p, int q) {
    if (q - p >= PROVING_LENGTH) {
      return false;
    }
    return (p > 0 && Character.isLetter(text.charAt(p - 1)) && Character.isLetter(text.charAt(p)))
        || (q < text.length()
            && Character.isLetter(text.charAt(q - 1))
            && Character.isLetter(text.charAt(q)));
  }

  private boolean isLiteralPiece(String piece, boolean atStart, boolean atEnd) {
    if (literals.contains(piece)) {
      return true;
    }
    if (atStart && atEnd) {
      return corpus.contains(piece);
    }
    if (atStart) {
      return corpus.contains(piece + SEP);
    }
    return atEnd && corpus.contains(SEP + piece);
  }

  /**
   * A value's cost, in half letters: a name, path or number (one token) costs half its letters, a
   * run of words all of them, for wording the source does not have is what the check looks for.
   */
  private static int valueCost(String value) {
    return value.strip().chars().anyMatch(Character::isWhitespace)
        ? 2 * letters(value)
        : letters(value);
  }

  private static int letters(String text) {
    return (int) text.chars().filter(Character::isLetterOrDigit).count();
  }
}
