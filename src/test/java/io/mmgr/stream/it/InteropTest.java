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
import io.mmgr.stream.topology.SampleKeys;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Other languages' clients against ours: a Python producer using Debian's python3-confluent-kafka
 * publishes the example generation events through its Avro serializer and our registry's REST API,
 * the Java scorer reads and scores them, and Debian's kcat reads the score and leaderboard topics.
 *
 * <p>The tools come from Debian packages that {@code .ci/run} installs. Without them the test fails in
 * CI and is skipped elsewhere, saying what to install (see {@link SystemPackages});
 * {@code -Dmmgr.interop.skip=true} skips it explicitly.
 */
class InteropTest {

    static final Path EXAMPLES = Path.of("examples", "magma");
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SETUP = " Install the Debian packages python3-confluent-kafka, python3-avro, python3-requests and kcat "
            + "(.ci/run does: it runs apt-get for them), or skip this test with -Dmmgr.interop.skip=true.";

    @TempDir
    static Path dir;
    static ScorerHarness h;
    static String python;

    @BeforeAll
    static void start() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("mmgr.interop.skip"),
                "interop test skipped on request (-Dmmgr.interop.skip=true)");
        // Debian's python3 (the package installs for it), not whatever python3 a version manager puts first
        python = System.getProperty("mmgr.python", Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3");
        Run check = run(List.of(python, "-c", "import confluent_kafka, avro, requests; print(confluent_kafka.version()[0])"));
        SystemPackages.require(check.code == 0, python + " cannot import confluent_kafka/avro/requests: " + check.out.trim()
                + "." + SETUP, "mmgr.interop.required");
        Run kcat = run(List.of("kcat", "-V"));
        SystemPackages.require(kcat.code == 0, "kcat is missing: " + kcat.out.trim() + "." + SETUP, "mmgr.interop.required");
        System.out.println("interop: python3-confluent-kafka " + check.out.trim() + "; " + kcat.out.lines().filter(l -> l.startsWith("Version")).findFirst().orElse(""));

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

    record Run(int code, String out, byte[] bytes) {
    }

    static Run run(List<String> cmd) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            p.getInputStream().transferTo(out);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Run(-1, "timed out: " + String.join(" ", cmd), out.toByteArray());
            }
            return new Run(p.exitValue(), out.toString(StandardCharsets.UTF_8), out.toByteArray());
        } catch (IOException e) {
            return new Run(-1, e.getMessage(), new byte[0]);
        }
    }

    @Test
    void aPythonProducerPublishesWhatTheJavaScorerScoresAndKcatReadsTheScores() throws Exception {
        // the schema as one self-contained document, from the generated class (the .avsc files refer to each other)
        Path schema = Files.writeString(dir.resolve("GenerationEvent.json"), GenerationEvent.getClassSchema().toString());
        Path events = EXAMPLES.resolve("generations.jsonl");
        Run producer = run(List.of(python, "interop/produce_events.py", "--bootstrap-servers", h.kafka.bootstrapServers(),
                "--schema-registry-url", h.registry.url(), "--schema", schema.toString(), "--topic", "interop.generations",
                events.toString()));
        producer.out.lines().forEach(l -> System.out.println("interop: " + l));
        assertThat(producer.code).as("python producer: %s", producer.out).isZero();
        List<String> lines = Files.readAllLines(events).stream().filter(l -> !l.isBlank()).toList();
        assertThat(producer.out).contains("sent " + lines.size() + " events");

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
        Map<SampleKey, SampleScore> viaKcat = latest(kcat("interop.sample-scores"),
                h.topics.sampleScores.keySerde().deserializer(), h.topics.sampleScores.valueSerde().deserializer(), "interop.sample-scores");
        assertThat(viaKcat).isEqualTo(scores);
        Map<LeaderboardKey, LeaderboardRow> boardViaKcat = latest(kcat("interop.leaderboard"),
                h.topics.leaderboard.keySerde().deserializer(), h.topics.leaderboard.valueSerde().deserializer(), "interop.leaderboard");
        assertThat(boardViaKcat).isEqualTo(h.leaderboard());
        assertThat(boardViaKcat.keySet()).containsAll(board.keySet());
        System.out.printf("interop: %d events from Python scored; kcat read %d scores and %d leaderboard rows%n",
                keys.size(), viaKcat.size(), boardViaKcat.size());
    }

    /** One record as kcat printed it: key and value bytes exactly. */
    record KcatRecord(byte[] key, byte[] value) {
    }

    /**
     * Debian's kcat has no Avro support (its build lists JSON, not Avro), so it prints the raw
     * Confluent-framed bytes; a format with both lengths ahead of the bytes keeps them exact.
     */
    static List<KcatRecord> kcat(String topic) throws Exception {
        Run r = run(List.of("kcat", "-C", "-b", h.kafka.bootstrapServers(), "-t", topic, "-o", "beginning", "-e", "-q",
                "-X", "isolation.level=read_committed", "-f", "%K %S\\n%k%s"));
        assertThat(r.code).as("kcat: %s", r.out).isZero();
        List<KcatRecord> out = new ArrayList<>();
        byte[] b = r.bytes;
        int i = 0;
        while (i < b.length) {
            int nl = i;
            while (b[nl] != '\n') {
                nl++;
            }
            String[] lengths = new String(b, i, nl - i, StandardCharsets.US_ASCII).trim().split(" ");
            int k = Integer.parseInt(lengths[0]);
            int v = Integer.parseInt(lengths[1]);
            i = nl + 1;
            byte[] key = k < 0 ? null : java.util.Arrays.copyOfRange(b, i, i + k);
            i += Math.max(0, k);
            byte[] value = v < 0 ? null : java.util.Arrays.copyOfRange(b, i, i + v);
            i += Math.max(0, v);
            out.add(new KcatRecord(key, value));
        }
        assertThat(out).as("records kcat read from %s", topic).isNotEmpty();
        return out;
    }

    static <K, V> Map<K, V> latest(List<KcatRecord> records, Deserializer<K> keys, Deserializer<V> values, String topic) {
        Map<K, V> out = new LinkedHashMap<>();
        for (KcatRecord r : records) {
            K key = keys.deserialize(topic, r.key());
            if (r.value() == null) {
                out.remove(key);
            } else {
                out.put(key, values.deserialize(topic, r.value()));
            }
        }
        return out;
    }
}
