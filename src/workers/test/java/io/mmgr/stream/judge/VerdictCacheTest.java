package io.mmgr.stream.judge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.JudgeVerdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.junit.jupiter.api.Tag;

/** The verdict cache on disk: what survives a restart, what a format change does, one worker per directory. */
@Tag("unit")
class VerdictCacheTest {

    @TempDir
    Path dir;

    static JudgeVerdict verdict(int i) {
        return JudgeVerdict.newBuilder().setRequestId("req-" + i).setGenerationId("gen-" + i).setRubric("math")
                .setRubricVersion("v1-abc").setJudgeModel("gemini-2.5-pro").setStatus(i % 7 == 0 ? "INVALID" : "VALID")
                .setMetrics(Map.of("final_correctness", (double) (i % 2), "intermediate_correctness", 1.0))
                .setJustifications(Map.of("final_correctness", "the answer states x = " + i))
                .setAttempts(1).setInputTokens(1200 + i % 100).setOutputTokens(3100).setCostUsd(0.0325)
                .setCacheKey("key-" + i).setDecidedAt(Instant.ofEpochMilli(1_700_000_000_000L + i)).build();
    }

    @Test
    void entriesPositionsAndSpendSurviveAReopen() {
        try (VerdictCache c = VerdictCache.open(dir)) {
            c.put("key-1", verdict(1));
            c.apply(Map.of("key-2", verdict(2), "key-3", verdict(3)), Map.of(0, 17L, 2, 5L),
                    Map.of(CostLedger.RUN + "run-a", new CostLedger.Totals(3, 3600, 9300, 0.0975)));
        }
        try (VerdictCache c = VerdictCache.open(dir)) {
            assertThat(c.get("key-1")).contains(verdict(1));
            assertThat(c.get("key-3")).contains(verdict(3));
            assertThat(c.get("key-4")).isEmpty();
            assertThat(c.count()).isEqualTo(3);
            assertThat(c.positions()).isEqualTo(Map.of(0, 17L, 2, 5L));
            assertThat(c.spend()).containsEntry(CostLedger.RUN + "run-a", new CostLedger.Totals(3, 3600, 9300, 0.0975));
        }
    }

    @Test
    void aStoreOfAnotherFormatIsEmptiedToBeReadAgainFromTheTopic() throws Exception {
        try (VerdictCache c = VerdictCache.open(dir)) {
            c.apply(Map.of("key-1", verdict(1)), Map.of(0, 40L), Map.of());
        }
        // as an earlier build (another schema or cache-key format) would have left it
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        List<ColumnFamilyDescriptor> families = new ArrayList<>();
        for (String name : List.of("default", "verdicts", "positions", "spend")) {
            families.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8)));
        }
        try (DBOptions o = new DBOptions(); RocksDB db = RocksDB.open(o, dir.toString(), families, handles)) {
            db.put(handles.get(0), "format".getBytes(StandardCharsets.UTF_8), "verdicts-v0".getBytes(StandardCharsets.UTF_8));
            handles.forEach(ColumnFamilyHandle::close);
        }
        try (VerdictCache c = VerdictCache.open(dir)) {
            assertThat(c.count()).isZero();
            assertThat(c.positions()).as("the follower starts from the topic's beginning").isEmpty();
        }
    }

    @Test
    void oneWorkerPerDirectory() {
        try (VerdictCache c = VerdictCache.open(dir)) {
            assertThatThrownBy(() -> VerdictCache.open(dir)).hasMessageContaining("cannot open the judge cache in " + dir)
                    .hasMessageContaining("another judge worker");
            assertThat(c.get("nothing")).isEmpty();
        }
    }

    @Test
    void aTemporaryCacheLeavesNothingBehind() {
        Path where;
        try (VerdictCache c = VerdictCache.temporary()) {
            c.put("k", verdict(1));
            where = c.directory();
            assertThat(Files.exists(where)).isTrue();
        }
        assertThat(Files.exists(where)).isFalse();
    }
}
