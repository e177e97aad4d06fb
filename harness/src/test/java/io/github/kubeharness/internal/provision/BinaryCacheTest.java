package io.github.kubeharness.internal.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.kubeharness.ChildJvm;
import io.github.kubeharness.KubeHarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BinaryCache}: atomic install, size and SHA-256 records, the lock, unwritable roots. */
class BinaryCacheTest {

  private static final Platform PLATFORM = new Platform("linux", "amd64");
  private static final byte[] CONTENT =
      "#!/bin/sh\necho pretending to be etcd\n".getBytes(StandardCharsets.UTF_8);

  @TempDir Path cacheRoot;
  @TempDir Path work;

  private BinaryCache cache;
  private Path source;

  @BeforeEach
  void setUp() throws IOException {
    cache = new BinaryCache(cacheRoot, "1.37.2", PLATFORM);
    source = Files.write(work.resolve("etcd"), CONTENT);
  }

  @Test
  void installedBinaryIsFoundWithItsRecord() throws IOException {
    Path installed = cache.install(Component.ETCD, source);

    assertThat(installed).isEqualTo(cacheRoot.resolve("k8s/1.37.2-linux-amd64/etcd"));
    assertThat(installed).isExecutable().hasBinaryContent(CONTENT);
    assertThat(cache.find(Component.ETCD)).contains(installed);
    assertThat(Files.readString(installed.resolveSibling("etcd.sha256")).trim())
        .isEqualTo(BinaryCache.sha256(source) + " " + CONTENT.length);
    // Nothing half-written is left next to it.
    try (var files = Files.list(cache.directory())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("etcd", "etcd.sha256");
    }
    cache.verify(Component.ETCD);
  }

  @Test
  void notInstalledBinaryIsNotFound() {
    assertThat(cache.find(Component.KUBE_APISERVER)).isEmpty();
  }

  @Test
  void truncatedBinaryIsReportedWithTheFileAndTheFix() throws IOException {
    Path installed = cache.install(Component.ETCD, source);
    Files.write(installed, new byte[] {'#', '!'});

    assertThatThrownBy(() -> cache.find(Component.ETCD))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("The cached binary " + installed + " is corrupt")
        .hasMessageContaining("its size is 2 bytes, " + CONTENT.length + " were installed")
        .hasMessageContaining("Delete " + cache.directory())
        .hasMessageContaining("provision");
  }

  @Test
  void sameSizeButOtherBytesFailsTheFullCheck() throws IOException {
    Path installed = cache.install(Component.ETCD, source);
    byte[] tampered = CONTENT.clone();
    tampered[tampered.length - 2] ^= 1;
    Files.write(installed, tampered);

    // The cheap size check on every lookup cannot see it ...
    assertThat(cache.find(Component.ETCD)).contains(installed);
    // ... the full check can.
    assertThatThrownBy(() -> cache.verify(Component.ETCD))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("The cached binary " + installed + " is corrupt")
        .hasMessageContaining("its SHA-256 is " + BinaryCache.sha256(installed))
        .hasMessageContaining(BinaryCache.sha256(source) + " was installed")
        .hasMessageContaining("Delete " + cache.directory())
        .hasMessageContaining("provision");
  }

  @Test
  void binaryWithoutRecordIsAccepted() throws IOException {
    // As when a user copies binaries into the cache by hand.
    Files.createDirectories(cache.directory());
    Path copied = Files.write(cache.directory().resolve("kube-apiserver"), CONTENT);
    assertThat(copied.toFile().setExecutable(true)).isTrue();

    assertThat(cache.find(Component.KUBE_APISERVER)).contains(copied);
    cache.verify(Component.KUBE_APISERVER);
  }

  @Test
  void unwritableCacheRootNamesTheSettingToChange() throws IOException {
    // A path below a regular file cannot be created, even by root.
    Path file = Files.writeString(work.resolve("not-a-directory"), "x");
    BinaryCache unwritable = new BinaryCache(file.resolve("cache"), "1.37.2", PLATFORM);

    assertThatThrownBy(() -> unwritable.lock(line -> {}))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("cache directory " + file.resolve("cache") + " is not writable")
        .hasMessageContaining("kubeharness.cache.dir")
        .hasMessageContaining("KUBE_HARNESS_CACHE_DIR");
    assertThatThrownBy(() -> unwritable.install(Component.ETCD, source))
        .isInstanceOf(KubeHarnessException.class)
        .hasMessageContaining("cache directory " + file.resolve("cache") + " is not writable")
        .hasMessageContaining("kubeharness.cache.dir")
        .hasMessageContaining("KUBE_HARNESS_CACHE_DIR");
  }

  @Test
  void failedLockCanBeRetriedByTheSameThreadAndOthers() throws Exception {
    Path file = Files.writeString(work.resolve("not-a-directory"), "x");
    BinaryCache unwritable = new BinaryCache(file.resolve("cache"), "1.37.2", PLATFORM);
    assertThatThrownBy(() -> unwritable.lock(line -> {})).isInstanceOf(KubeHarnessException.class);

    // The in-JVM lock was released on failure: another thread is not blocked by it.
    List<String> progress = new CopyOnWriteArrayList<>();
    CompletableFuture<Throwable> other =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                unwritable.lock(progress::add);
                return null;
              } catch (RuntimeException e) {
                return e;
              }
            });
    assertThat(other.get(30, TimeUnit.SECONDS)).isInstanceOf(KubeHarnessException.class);
    assertThat(progress).isEmpty();
  }

  @Test
  void secondThreadWaitsUntilTheFirstReleasesTheLock() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    CountDownLatch secondWaiting = new CountDownLatch(1);

    AutoCloseable first = cache.lock(line -> events.add("first: " + line));
    events.add("first acquired");
    CompletableFuture<Void> second =
        CompletableFuture.runAsync(
            () -> {
              try (AutoCloseable lock =
                  cache.lock(
                      line -> {
                        events.add("second: " + line);
                        secondWaiting.countDown();
                      })) {
                events.add("second acquired");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    // The second thread reports that it waits, and it cannot pass while the first holds the lock.
    assertThat(secondWaiting.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(second).isNotDone();
    events.add("first releasing");
    first.close();

    second.get(30, TimeUnit.SECONDS);
    assertThat(events)
        .containsExactly(
            "first acquired",
            "second: waiting for another thread provisioning " + cache.directory() + " ...",
            "first releasing",
            "second acquired");
    // Released again by the second thread: a third taker gets it at once, without waiting.
    List<String> third = new CopyOnWriteArrayList<>();
    cache.lock(third::add).close();
    assertThat(third).isEmpty();
  }

  @Test
  void anotherJvmWaitsUntilTheFirstReleasesTheLock() throws Exception {
    Path root = cacheRoot;
    try (ChildJvm holder =
        ChildJvm.start(CacheLockHolder.class.getName(), root.toString(), "1.37.2")) {
      holder.awaitLine(l -> l.equals("LOCKED"), Duration.ofSeconds(60));
      List<String> progress = new CopyOnWriteArrayList<>();
      CountDownLatch waiting = new CountDownLatch(1);
      CompletableFuture<Void> here =
          CompletableFuture.runAsync(
              () -> {
                try (AutoCloseable lock =
                    cache.lock(
                        line -> {
                          progress.add(line);
                          waiting.countDown();
                        })) {
                  progress.add("acquired");
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });

      assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
      assertThat(here).isNotDone();
      holder.process().getOutputStream().write("release\n".getBytes(StandardCharsets.UTF_8));
      holder.process().getOutputStream().flush();
      holder.awaitLine(l -> l.equals("RELEASED"), Duration.ofSeconds(30));

      here.get(30, TimeUnit.SECONDS);
      assertThat(progress)
          .containsExactly(
              "waiting for another process provisioning " + cache.directory() + " ...", "acquired");
    }
  }
}
