package io.github.kubeharness;

import java.util.ArrayList;
import java.util.List;

/**
 * A line diff for test failures: lines only in the first list get "-", only in the second "+", and
 * unchanged lines show only near a change.
 */
final class LineDiff {

  private LineDiff() {}

  /** The two lists line by line, along their longest common subsequence. */
  static String of(List<String> expected, List<String> actual) {
    int n = expected.size();
    int m = actual.size();
    int[][] common = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        common[i][j] =
            expected.get(i).equals(actual.get(j))
                ? common[i + 1][j + 1] + 1
                : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    List<String> out = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
        out.add("  " + expected.get(i++));
        j++;
      } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
        out.add("- " + expected.get(i++));
      } else {
        out.add("+ " + actual.get(j++));
      }
    }
    return String.join("\n", nearChanges(out));
  }

  private static final int CONTEXT = 3;

  private static List<String> nearChanges(List<String> lines) {
    List<String> kept = new ArrayList<>();
    boolean skipped = false;
    for (int k = 0; k < lines.size(); k++) {
      boolean near = false;
      for (int d = Math.max(0, k - CONTEXT); d <= Math.min(lines.size() - 1, k + CONTEXT); d++) {
        near |= !lines.get(d).startsWith("  ");
      }
      if (near) {
        kept.add(lines.get(k));
        skipped = false;
      } else if (!skipped) {
        kept.add("  ...");
        skipped = true;
      }
    }
    return kept;
  }
}
