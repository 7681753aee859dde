package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.app.JsonlPublisher;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.SchemaNormalization;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Other languages' clients against ours: a Python producer on Debian's python3-confluent-kafka and
 * python3-avro (interop/produce_events.py, through the repository's Python client) publishes the example
 * generation events against our registry's REST API,
 * the Java scorer reads and scores them, and Debian's kcat reads the score and leaderboard topics.
 *
 * <p>The tools come from Debian packages that {@code .ci/run} installs. Without them the test fails in
 * CI and is skipped elsewhere, saying what to install (see {@link SystemPackages});
 * {@code -Dmmgr.interop.skip=true} skips it explicitly.
 */
@Tag("integration")
class InteropTest {

    static final Path EXAMPLES = Path.of("examples", "magma");
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    static ScorerHarness h;

    @BeforeAll
    static void start() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("mmgr.interop.skip"),
                "interop test skipped on request (-Dmmgr.interop.skip=true)");
        PythonRunner.requireClient();
        SystemPackages.require(SystemPackages.runs("kcat", "-V"), "kcat is missing: install the Debian package kcat (.ci/run does), "
                + "or skip this test with -Dmmgr.interop.skip=true.", "mmgr.interop.required");

        h = new ScorerHarness(dir.resolve("stack"), ScorerSettings.defaults().withPrefix("interop.").withPartitions(3));
        try (JsonlPublisher items = new JsonlPublisher(new Endpoints(h.kafka.bootstrapServers(), h.registry.url(), "interop."),
                Map.of(), Map.of())) {
            assertThat(items.publish(JsonlPublisher.Kind.benchmark, EXAMPLES.resolve("benchmark.jsonl"), () -> { }).errors()).isEmpty();
        }
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    @Test
    void aPythonProducerPublishesWhatTheJavaScorerScoresAndKcatReadsTheScores() throws Exception {
        // the repository's Python client assembles the schema from schemas/*.avsc itself
        Path events = EXAMPLES.resolve("generations.jsonl");
        PythonRunner.Result producer = PythonRunner.run(List.of("interop/produce_events.py", "--bootstrap-servers",
                h.kafka.bootstrapServers(), "--schema-registry-url", h.registry.url(), "--topic-prefix", "interop.",
                events.toString()), Map.of(), Path.of("."));
        producer.out().lines().forEach(l -> System.out.println("interop: " + l));
        assertThat(producer.code()).as("python producer: %s", producer.out()).isZero();
        List<String> lines = Files.readAllLines(events).stream().filter(l -> !l.isBlank()).toList();
        assertThat(producer.out()).contains("sent " + lines.size() + " events");

        // byte-level contract: what Python wrote reads back as exactly the event the JSON line describes
        List<ConsumerRecord<byte[], byte[]>> raw = TopicSnapshot.all(h.clientConfig, "interop.generations", Duration.ofSeconds(30));
        assertThat(raw).hasSize(lines.size());
        Deserializer<GenerationEvent> events2 = h.topics.generations.valueSerde().deserializer();
        Map<String, GenerationEvent> fromPython = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : raw) {
            GenerationEvent e = events2.deserialize(r.topic(), r.value());
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(SampleKeys.ref(SampleKeys.of(e)));
            fromPython.put(SampleKeys.ref(SampleKeys.of(e)), e);
            int id = ByteBuffer.wrap(r.value(), 1, 4).getInt();
            assertThat(SchemaNormalization.parsingFingerprint64(new SchemaRegistryClient(h.registry.url()).schemaById(id)))
                    .as("the schema Python registered is GenerationEvent's")
                    .isEqualTo(SchemaNormalization.parsingFingerprint64(GenerationEvent.getClassSchema()));
        }
        for (String line : lines) {
            GenerationEvent expected = JsonAvro.read(line, GenerationEvent.class);
            assertThat(fromPython.get(SampleKeys.ref(SampleKeys.of(expected)))).as(line).isEqualTo(expected);
        }

        // the Java scorer scored every one of them
        List<SampleKey> keys = fromPython.values().stream().map(SampleKeys::of).toList();
        Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.keySet().containsAll(keys), WAIT, "scores of the Python events");
        assertThat(h.deadLetters()).isEmpty();
        assertThat(keys).allSatisfy(k -> assertThat(scores.get(k).getStatus()).isEqualTo("COMPLETE"));
        Map<LeaderboardKey, LeaderboardRow> board = await(h::leaderboard,
                b -> b.values().stream().filter(r -> r.getTask().equals(SampleKeys.ALL_TASKS)).mapToLong(LeaderboardRow::getSamplesScored)
                        .sum() == keys.size()
                        && b.values().stream().filter(r -> !r.getTask().equals(SampleKeys.ALL_TASKS))
                                .mapToLong(LeaderboardRow::getSamplesScored).sum() == keys.size(),
                WAIT, "leaderboard rows (task and all-tasks) counting every Python event");

        // kcat reads both score topics; its bytes decode to what the Java consumer sees
        Map<SampleKey, SampleScore> viaKcat = Kcat.latest(Kcat.read(h.kafka.bootstrapServers(), "interop.sample-scores"),
                h.topics.sampleScores.keySerde().deserializer(), h.topics.sampleScores.valueSerde().deserializer(), "interop.sample-scores");
        assertThat(viaKcat).isEqualTo(scores);
        Map<LeaderboardKey, LeaderboardRow> boardViaKcat = Kcat.latest(Kcat.read(h.kafka.bootstrapServers(), "interop.leaderboard"),
                h.topics.leaderboard.keySerde().deserializer(), h.topics.leaderboard.valueSerde().deserializer(), "interop.leaderboard");
        assertThat(boardViaKcat).isEqualTo(h.leaderboard());
        assertThat(boardViaKcat.keySet()).containsAll(board.keySet());
        System.out.printf("interop: %d events from Python scored; kcat read %d scores and %d leaderboard rows%n",
                keys.size(), viaKcat.size(), boardViaKcat.size());
    }
}
