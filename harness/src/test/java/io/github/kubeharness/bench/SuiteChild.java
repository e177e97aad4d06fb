package io.github.kubeharness.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Child JVM of {@link SuiteBench}: runs a suite of {@link SuiteScenarios} with the JUnit Platform
 * launcher, as a build does (the harness's launcher listener on, unless the JVM's {@code
 * junit.platform.execution.listeners.deactivate} turns it off). {@code first}: prints {@code
 * FIRST_TEST <ms from the JVM's start to the end of the first test>}. {@code peak [grouped]}: the
 * matrix suite, sampled every 100 ms; prints {@code PEAK <most kube-apiservers alive at once>
 * <largest RSS of the JVM and its processes together, MiB>}.
 */
public final class SuiteChild {

  private SuiteChild() {}

  public static void main(String[] args) throws Exception {
    long jvmStarted = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
    if (args[0].equals("first")) {
      AtomicLong firstTestEnd = new AtomicLong();
      run(
          ClassOrderer.OrderAnnotation.class.getName(),
          List.of(SuiteScenarios.FirstTestScenario.class),
          id -> firstTestEnd.compareAndSet(0, System.currentTimeMillis()));
      System.out.println("FIRST_TEST " + (firstTestEnd.get() - jvmStarted));
      return;
    }
    boolean grouped = args.length > 1 && args[1].equals("grouped");
    AtomicLong peakApiServers = new AtomicLong();
    AtomicLong peakRssKb = new AtomicLong();
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                List<ProcessHandle> all =
                    new ArrayList<>(ProcessHandle.current().descendants().toList());
                long apiServers =
                    all.stream()
                        .filter(p -> p.info().command().orElse("").endsWith("/kube-apiserver"))
                        .count();
                all.add(ProcessHandle.current());
                long rss = all.stream().mapToLong(SuiteChild::rssKb).sum();
                peakApiServers.accumulateAndGet(apiServers, Math::max);
                peakRssKb.accumulateAndGet(rss, Math::max);
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sampler.setDaemon(true);
    sampler.start();
    run(
        grouped
            ? "io.github.kubeharness.junit.ControlPlaneClassOrder"
            : ClassOrderer.OrderAnnotation.class.getName(),
        Stream.of(SuiteScenarios.class.getDeclaredClasses())
            .filter(c -> c != SuiteScenarios.FirstTestScenario.class)
            .toList(),
        id -> {});
    sampler.interrupt();
    System.out.println("PEAK " + peakApiServers.get() + " " + peakRssKb.get() / 1024);
  }

  private static void run(
      String classOrder,
      List<Class<?>> classes,
      java.util.function.Consumer<TestIdentifier> testPassed) {
    List<String> failures = new ArrayList<>();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(classes.stream().map(c -> (DiscoverySelector) selectClass(c)).toList())
                .configurationParameter("junit.jupiter.testclass.order.default", classOrder)
                .build(),
            new TestExecutionListener() {
              @Override
              public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                  failures.add(id.getDisplayName() + ": " + result.getThrowable().orElse(null));
                } else if (id.isTest()) {
                  testPassed.accept(id);
                }
              }
            });
    if (!failures.isEmpty()) {
      throw new IllegalStateException("the suite failed: " + failures);
    }
  }

  /** The process's resident memory (VmRSS), 0 once it has gone. */
  private static long rssKb(ProcessHandle process) {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // gone meanwhile
    }
    return 0;
  }
}
