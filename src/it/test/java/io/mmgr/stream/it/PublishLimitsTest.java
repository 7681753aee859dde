package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.TopicSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/mmgr label} and {@code publish} hold each line to the scorer's input limits and refuse
 * non-finite numbers, naming the line; the other lines go out (counted on the real topic).
 */
@Tag("integration")
class PublishLimitsTest {

    @TempDir
    static Path dir;
    static Infrastructure infra;

    @BeforeAll
    static void start() throws Exception {
        infra = new Infrastructure(dir.resolve("infra"));
        // the scorer creates its topics at start; here no scorer runs
        try (var admin = org.apache.kafka.clients.admin.Admin.create(infra.clientConfig())) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic("pl.human-labels", 1, (short) 1),
                    new org.apache.kafka.clients.admin.NewTopic("pp.generations", 1, (short) 1))).all().get();
        }
    }

    @AfterAll
    static void stop() {
        if (infra != null) {
            infra.close();
        }
    }

    List<String> connection(String prefix) {
        return List.of("--bootstrap-servers", infra.bootstrapServers(), "--schema-registry-url", infra.registryUrl(),
                "--topic-prefix", prefix, "--data-dir", dir.resolve("none").toString());
    }

    static String label(String annotator, String metrics) {
        return "{\"runId\":\"r\",\"checkpointId\":\"c\",\"task\":\"maze\",\"sampleId\":\"m1\",\"seed\":0,\"annotator\":\""
                + annotator + "\",\"metrics\":" + metrics + "}";
    }

    @Test
    void labelsWithNonFiniteOrOversizedValuesAreRefusedByLine() throws Exception {
        Path file = Files.write(dir.resolve("labels.jsonl"), List.of(
                label("ann-1", "{\"cross_wall\": 0}"),
                label("ann-2", "{\"cross_wall\": 1e400}"),
                label("ann-3", "{\"cross_wall\": -1e999}"),
                label("a".repeat(300), "{\"cross_wall\": 1}"),
                label("ann-5", "{\"cross_wall\": NaN}"),
                label("ann-6", "{\"target_achievement\": 1}")));
        String[] r = SecretsTest.cli(1, concat(List.of("label", file.toString()), connection("pl.")));
        assertThat(r[0]).contains("published 2 labels record(s) to pl.human-labels (4 line(s) skipped)");
        assertThat(r[1]).contains("line 2: HumanLabel.metrics.cross_wall must be a finite number (1E+400 overflows a double)")
                .contains("line 3: HumanLabel.metrics.cross_wall must be a finite number (-1E+999 overflows a double)")
                .contains("line 4: field annotator is 300 bytes, over the limit of 256 bytes (mmgr.limits.id-bytes)")
                .contains("line 5: not valid JSON");
        assertThat(TopicSnapshot.all(infra.clientConfig(), "pl.human-labels", Duration.ofSeconds(30))).hasSize(2);
    }

    @Test
    void publishAppliesTheLimitsGivenWithDashP() throws Exception {
        String event = "{\"runId\": \"run-7\", \"model\": \"m\", \"checkpointId\": \"ckpt-1\", \"trainingStep\": 1,"
                + " \"task\": \"mind2web\", \"sampleId\": \"%s\", \"seed\": 0, \"modality\": \"ui\","
                + " \"inputs\": {\"values\": {\"lpips\": %s}}, \"producedAt\": \"2026-11-30T12:00:00Z\"}";
        Path file = Files.write(dir.resolve("events.jsonl"), List.of(
                String.format(event, "short", "0.5"),
                String.format(event, "a-sample-id-of-40-characters-0123456789", "0.5"),
                String.format(event, "ok", "1e309")));
        String[] r = SecretsTest.cli(1, concat(List.of("publish", file.toString(), "-P", "mmgr.limits.id-bytes=16"),
                connection("pp.")));
        assertThat(r[0]).contains("published 1 generations record(s) to pp.generations (2 line(s) skipped)");
        assertThat(r[1]).contains("line 2: field sampleId is 39 bytes, over the limit of 16 bytes (mmgr.limits.id-bytes)")
                .contains("line 3: GenerationEvent.inputs.values.lpips must be a finite number (1E+309 overflows a double)");
    }

    static List<String> concat(List<String> a, List<String> b) {
        return SecretsTest.concat(a, b);
    }
}
