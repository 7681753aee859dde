package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The lane cuts batches by the bytes their record takes, counted request by request: the counts must add up to the
 * record's JSON exactly, whatever Jackson escapes, and an ENDED record may outgrow its SUBMITTING one by at most
 * {@link BatchRecord#MAX_GROWTH}.
 */
@Tag("unit")
class BatchRecordBytesTest {

    /** Keys with what JSON escapes (quotes, backslashes, control characters) and what UTF-8 widens (2, 3 and 4 bytes). */
    static final List<String> KEYS = List.of(
            "run-1/ckpt-7/sample-42#rubric:v3|cfg",
            "quote\"d \\back\\slash\\\"",
            "ctrl\n\t\r\b\f\u0000\u0001\u001f\u007f end",
            "é ü ß ✓ 日本語 😀 𝄞",
            "slash/ and </script> and \u2028\u2029",
            "x".repeat(3000));

    static BatchRecord record(Map<String, String> requests, String note) {
        return new BatchRecord("w1-" + "0".repeat(36), BatchRecord.State.SUBMITTING, null, "openai",
                Instant.parse("2026-12-05T23:59:59.123Z"), requests, note);
    }

    @Test
    void perRequestBytesAndTheFixedPartAddUpToTheRecordExactly() throws Exception {
        Map<String, String> requests = new LinkedHashMap<>();
        long sum = 0;
        for (String key : KEYS) {
            String id = CustomIds.of(key);
            requests.put(id, key);
            sum += BatchRecord.requestBytes(id, key);
            BatchRecord r = record(requests, "");
            assertThat(r.fixedBytes() + sum).as("%d requests", requests.size()).isEqualTo(r.toJson().length);
        }
        // the escapes count: the quote-and-backslash key is longer in JSON than in UTF-8
        String escaped = KEYS.get(1);
        assertThat(BatchRecord.requestBytes(CustomIds.of(escaped), escaped))
                .isGreaterThan(CustomIds.of(escaped).length() + escaped.getBytes(StandardCharsets.UTF_8).length + 6);
        // and the count survives a round trip: the record read back is the same size
        BatchRecord r = record(requests, "");
        assertThat(BatchRecord.fromJson(r.toJson()).toJson()).hasSize(r.toJson().length);
    }

    @Test
    void anEndedRecordOutgrowsItsSubmittingOneByAtMostTheGrowth() throws Exception {
        Map<String, String> requests = Map.of(CustomIds.of(KEYS.get(0)), KEYS.get(0));
        BatchRecord submitting = record(requests, "");
        String longWhy = "creating the batch failed (" + "\"\u0001é😀".repeat(500) + ")";
        BatchRecord ended = submitting.submitted("batch_" + "a".repeat(64)).ended(longWhy);
        assertThat(ended.toJson().length - submitting.toJson().length).isLessThanOrEqualTo(BatchRecord.MAX_GROWTH);
        assertThat(BatchRecord.jsonBytes(ended.note())).isLessThanOrEqualTo(BatchRecord.NOTE_MAX_BYTES).isGreaterThan(200);
        assertThat(ended.note()).startsWith("creating the batch failed (").endsWith("...");
        assertThat(BatchRecord.fromJson(ended.toJson()).note()).isEqualTo(ended.note());
        BatchRecord shortly = submitting.ended("every answer taken");
        assertThat(shortly.note()).isEqualTo("every answer taken");
    }
}
