package io.github.kubeharness.internal.scaffold;

import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files one generator command writes, checked as a whole before the first is written and undone
 * as a whole if writing fails: the directory is either changed completely or left exactly as it
 * was. New files must not exist yet; edited files must exist.
 */
final class FileChanges {

  private final Path dir;
  private final Map<Path, String> created = new LinkedHashMap<>();
  private final Map<Path, String> edited = new LinkedHashMap<>();

  FileChanges(Path dir) {
    this.dir = dir;
  }

  /** A new file, relative to the directory. */
  void create(String relative, String content) {
    created.put(dir.resolve(relative), content);
  }

  /** The new content of an existing file, relative to the directory. */
  void edit(String relative, String content) {
    edited.put(dir.resolve(relative), content);
  }

  /** Fails, naming the file and the fix, if a new file exists already or an edited one does not. */
  void check(String command) {
    for (Path file : created.keySet()) {
      if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        throw new KubeHarnessException(
            command
                + " would write "
                + file
                + ", which exists already; nothing was changed. Fix: move or delete it, or choose"
                + " another name.");
      }
    }
    for (Path file : edited.keySet()) {
      if (!Files.isRegularFile(file)) {
        throw new KubeHarnessException(
            command
                + " adds to "
                + file
                + ", which is missing; nothing was changed. Fix: restore it from the project's"
                + " history, or regenerate the project with kube-harness init.");
      }
    }
  }

  /** Writes everything, or, when a write fails, restores what was there and rethrows. */
  void apply(String command) {
    Deque<Path> madeDirectories = new ArrayDeque<>();
    Deque<Path> written = new ArrayDeque<>();
    Map<Path, byte[]> originals = new LinkedHashMap<>();
    try {
      for (Map.Entry<Path, String> file : created.entrySet()) {
        makeDirectories(file.getKey().getParent(), madeDirectories);
        Files.writeString(file.getKey(), file.getValue(), StandardCharsets.UTF_8);
        written.push(file.getKey());
      }
      for (Map.Entry<Path, String> file : edited.entrySet()) {
        originals.put(file.getKey(), Files.readAllBytes(file.getKey()));
        Files.writeString(file.getKey(), file.getValue(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      KubeHarnessException failure =
          new KubeHarnessException(
              command + " could not write into " + dir + " (" + e + "); what it wrote was undone.",
              e);
      undo(written, madeDirectories, originals, failure);
      throw failure;
    }
  }

  private static void makeDirectories(Path directory, Deque<Path> made) throws IOException {
    Deque<Path> missing = new ArrayDeque<>();
    for (Path p = directory; p != null && !Files.isDirectory(p); p = p.getParent()) {
      missing.push(p);
    }
    while (!missing.isEmpty()) {
      Path p = missing.pop();
      Files.createDirectory(p);
      made.push(p);
    }
  }

  private static void undo(
      Deque<Path> written, Deque<Path> made, Map<Path, byte[]> originals, Exception failure) {
    originals.forEach(
        (file, bytes) -> {
          try {
            Files.write(file, bytes);
          } catch (IOException e) {
            failure.addSuppressed(e);
          }
        });
    for (Deque<Path> paths : java.util.List.of(written, made)) {
      for (Path p : paths) {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          failure.addSuppressed(e);
        }
      }
    }
  }
}
