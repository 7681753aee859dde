package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.JudgeVerdict;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A million cached verdicts in a JVM with a 256 MB heap (the {@code small-heap} surefire execution):
 * the cache is on disk, so what it holds is not bounded by the heap, and the heap it uses stays small.
 */
@Tag("small-heap")
@Tag("unit")
class VerdictCacheHeapTest {

    static final int ENTRIES = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void aMillionVerdictsInA256MbHeap() {
        long maxHeap = Runtime.getRuntime().maxMemory();
        assertThat(maxHeap).as("this test runs in the small heap").isLessThanOrEqualTo(256L << 20);
        // the small-heap tests share one JVM: what earlier ones left behind is not the cache's
        System.gc();
        long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        try (VerdictCache cache = VerdictCache.open(dir.resolve("cache"))) {
            Map<String, JudgeVerdict> batch = new HashMap<>();
            for (int i = 0; i < ENTRIES; i++) {
                JudgeVerdict v = VerdictCacheTest.verdict(i);
                batch.put(v.getCacheKey(), v);
                if (batch.size() == 10_000) {
                    // as the follower writes them: entries with their topic position
                    cache.apply(batch, Map.of(0, (long) i + 1), Map.of());
                    batch = new HashMap<>();
                }
            }
            cache.apply(batch, Map.of(0, (long) ENTRIES), Map.of());
            assertThat(cache.count()).isEqualTo(ENTRIES);
            SplittableRandom random = new SplittableRandom(7);
            for (int n = 0; n < 2_000; n++) {
                int i = random.nextInt(ENTRIES);
                assertThat(cache.get("key-" + i)).contains(VerdictCacheTest.verdict(i));
            }
            assertThat(cache.get("key-" + ENTRIES)).isEmpty();
            System.gc();
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf("verdict cache: %,d entries, heap used after GC %.1f MB (%.1f MB before the cache) of %.0f MB max; "
                    + "on disk in %s%n", ENTRIES, used / 1048576.0, before / 1048576.0, maxHeap / 1048576.0, cache.directory());
            // a million verdicts as objects would take several hundred MB; the cache keeps them off the heap
            assertThat(used - before).isLessThan(64L << 20);
        }
        try (VerdictCache reopened = VerdictCache.open(dir.resolve("cache"))) {
            assertThat(reopened.positions()).containsEntry(0, (long) ENTRIES);
            assertThat(reopened.get("key-123456")).contains(VerdictCacheTest.verdict(123_456));
        }
    }
}
