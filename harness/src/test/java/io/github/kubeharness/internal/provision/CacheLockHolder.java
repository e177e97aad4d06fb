package io.github.kubeharness.internal.provision;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;

/**
 * Child JVM of {@link BinaryCacheTest}: takes the cache lock of {@code args[0]} (version {@code
 * args[1]}), prints {@code LOCKED}, and holds it until a line arrives on standard input.
 */
public final class CacheLockHolder {

  public static void main(String[] args) throws Exception {
    BinaryCache cache = new BinaryCache(Path.of(args[0]), args[1], new Platform("linux", "amd64"));
    try (AutoCloseable lock = cache.lock(line -> System.out.println("PROGRESS " + line))) {
      System.out.println("LOCKED");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in)).readLine();
    }
    System.out.println("RELEASED");
    System.out.flush();
  }
}
