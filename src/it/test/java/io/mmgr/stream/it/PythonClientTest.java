package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.artifacts.S3Settings;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.status.CheckpointStatusSettings;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client (clients/python) against the real in-process broker, registry and scorer, on Debian's
 * python3-confluent-kafka and python3-avro: a benchmark and two checkpoints of maze images (from the
 * scorer's generator, so the right and wrong answers are known) and Mind2Web episodes; a checkpoint with a
 * missing sample; frame lists encoded to MP4; outputs uploaded to an S3-compatible store (s3proxy, in this JVM) that
 * the scorer reads them from, through a proxy that can make the store slow or silent; and the client's own tests of
 * every error it raises.
 */
@Tag("integration")
class PythonClientTest {

    static final String PREFIX = "py.";
    static final Path TESTS = PythonRunner.CLIENT.resolve("tests");
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String WEB_TOKEN = "py-client-token-" + Long.toHexString(System.nanoTime());

    @TempDir
    static Path dir;
    static final String BUCKET = "py-outputs";
    /** The scorer's s3 read timeout: short, so a slow store shows within seconds (a read here takes milliseconds). */
    static final Duration S3_TIMEOUT = Duration.ofSeconds(2);
    static Path artifacts;
    static ScorerHarness h;
    static S3TestStore s3;
    static AutoCloseable s3Credentials;
    static FaultyTcpProxy s3Path;

    @BeforeAll
    static void start() throws Exception {
        PythonRunner.requireClient();
        artifacts = Files.createDirectories(dir.resolve("artifacts"));
        // the client uploads to the store directly; the scorer reads it through a proxy a test can slow or silence,
        // with the key pair the standard AWS chain finds (this JVM's system properties, as an operator's env would be)
        s3 = new S3TestStore();
        s3.createBucket(BUCKET);
        s3Credentials = s3.asJvmCredentials();
        s3Path = new FaultyTcpProxy(s3.port());
        // the web server with an access token, as a scorer bound beyond loopback has it: the client's REST reads pass it
        h = new ScorerHarness(dir.resolve("stack"), ScorerSettings.defaults().withPrefix(PREFIX).withPartitions(3)
                .withArtifactRoots(List.of(artifacts))
                .withArtifactS3(S3Settings.defaults().withEndpoint(URI.create("http://127.0.0.1:" + s3Path.port()))
                        .withPathStyle(true).withTimeout(S3_TIMEOUT))
                .withKafkaOverrides(Map.of(CheckpointStatusSettings.INTERVAL_KEY, "200")),
                io.mmgr.stream.app.ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1")
                        .withWebAccess(io.mmgr.stream.web.WebAccess.token(WEB_TOKEN)));
    }

    @AfterAll
    static void stop() throws Exception {
        if (h != null) {
            h.close();
        }
        if (s3Path != null) {
            s3Path.close();
        }
        if (s3Credentials != null) {
            s3Credentials.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    static Map<String, String> env(String run) {
        Map<String, String> env = new HashMap<>();
        env.put("MMGR_TEST_BOOTSTRAP", h.kafka.bootstrapServers());
        env.put("MMGR_TEST_REGISTRY", h.registry.url());
        env.put("MMGR_TEST_PREFIX", PREFIX);
        env.put("MMGR_TEST_ARTIFACTS", artifacts.toString());
        env.put("MMGR_TEST_RUN", run);
        env.put("MMGR_TEST_WEB_URL", h.scorer.web().orElseThrow().url());
        env.put("MMGR_TEST_WEB_TOKEN", WEB_TOKEN);
        // the standard AWS variables boto3 reads (the endpoint ones the client reads itself on older botocore)
        env.put("MMGR_TEST_S3_BUCKET", BUCKET);
        env.put("AWS_ENDPOINT_URL", s3.endpoint().toString());
        env.put("AWS_ENDPOINT_URL_S3", s3.endpoint().toString());
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", S3TestStore.ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", s3.secretKey());
        return env;
    }

    /** Easy mazes from the scorer's generator, under the artifact directory, for a script to publish. */
    /**
     * The benchmark table is shared by every test of the class, and a checkpoint expects every item of the
     * benchmark: so every test here publishes these same four mazes (the generator is deterministic). An item
     * re-published with other content under the same id could still be read in its old version by the
     * events that follow it at once.
     */
    static Map<String, String> withMazes(Map<String, String> env) throws Exception {
        MazeBenchmarkGenerator.Result mazes = MazeBenchmarkGenerator.generate(artifacts.resolve("mazes"), 4,
                List.of(MazeBand.EASY), 11);
        env.put("MMGR_TEST_MAZE_ITEMS", mazes.itemsFile().toString());
        return env;
    }

    /** A script's report lines {@code KIND <json>}, by kind. */
    static Map<String, List<JsonNode>> reports(String out) throws Exception {
        Map<String, List<JsonNode>> byKind = new LinkedHashMap<>();
        for (String line : out.lines().toList()) {
            if (line.matches("[A-Z]+ .+")) {
                int space = line.indexOf(' ');
                byKind.computeIfAbsent(line.substring(0, space), k -> new ArrayList<>()).add(JsonAvro.MAPPER.readTree(line.substring(space + 1)));
            }
        }
        return byKind;
    }

    static PythonRunner.Result script(String name, Map<String, String> env) throws Exception {
        PythonRunner.Result r = PythonRunner.run(List.of(TESTS.resolve(name).toString()), env, TESTS);
        System.out.printf("python %s: exit %d in %.1f s (load average %s)%n", name, r.code(), r.took().toMillis() / 1000.0,
                Files.readString(Path.of("/proc/loadavg")).trim());
        assertThat(r.code()).as("%s:%n%s", name, r.out()).isZero();
        return r;
    }

    static <T extends org.apache.avro.specific.SpecificRecord> List<T> records(JsonNode array, Class<T> type) {
        List<T> out = new ArrayList<>();
        array.forEach(n -> out.add(JsonAvro.read(n, type)));
        return out;
    }

    static Map<LeaderboardKey, CheckpointComparison> comparisons() {
        return TopicSnapshot.latest(h.clientConfig, h.topics.comparisons.name(), h.topics.comparisons.keySerde().deserializer(),
                h.topics.comparisons.valueSerde().deserializer(), Duration.ofSeconds(30));
    }

    static LeaderboardRow row(List<LeaderboardRow> rows, String task) {
        return rows.stream().filter(r -> r.getTask().equals(task)).findFirst().orElseThrow();
    }

    @Test
    void aBenchmarkAndTwoCheckpointsOfImagesAndEpisodesAreScoredAndWaitReturnsTheLeaderboardsRows() throws Exception {
        String run = "py-two";
        Map<String, List<JsonNode>> out = reports(script("scenario_two_checkpoints.py", withMazes(env(run))).out());

        assertThat(out.get("PUBLISHED").get(0).asInt()).isEqualTo(4 + 3);
        // the REST API, read with the token: the all-tasks rows of both checkpoints; a maze output served as recorded
        assertThat(out.get("WEB").get(0)).extracting(r -> r.get("checkpointId").asText()).containsExactlyInAnyOrder("ckpt-100", "ckpt-200");
        JsonNode served = out.get("ARTIFACT").get(0);
        assertThat(served.get("served").asText()).isEqualTo(served.get("recorded").asText());
        assertThat(served.get("mediaType").asText()).isEqualTo("image/png");
        List<JsonNode> results = out.get("RESULT");
        assertThat(results).hasSize(2);
        Map<LeaderboardKey, LeaderboardRow> board = h.leaderboard();
        Map<LeaderboardKey, CheckpointComparison> cmp = comparisons();
        Map<String, List<LeaderboardRow>> rowsByCheckpoint = new HashMap<>();
        for (JsonNode result : results) {
            String ckpt = result.get("ckpt").asText();
            assertThat(result.get("status").asText()).as("%s: %s", ckpt, result).isEqualTo("complete");
            // the rows wait() returned are the leaderboard topic's, field for field
            List<LeaderboardRow> rows = records(result.get("rows"), LeaderboardRow.class);
            assertThat(rows).extracting(LeaderboardRow::getTask).containsExactly("maze", "mind2web", SampleKeys.ALL_TASKS);
            for (LeaderboardRow r : rows) {
                assertThat(r).as("%s %s", ckpt, r.getTask()).isEqualTo(board.get(new LeaderboardKey(run, ckpt, r.getTask())));
            }
            List<CheckpointComparison> comparisons = records(result.get("comparisons"), CheckpointComparison.class);
            assertThat(comparisons).extracting(CheckpointComparison::getTask).containsExactly("maze", "mind2web", SampleKeys.ALL_TASKS);
            for (CheckpointComparison c : comparisons) {
                assertThat(c).isEqualTo(cmp.get(new LeaderboardKey(run, ckpt, c.getTask())));
            }
            JsonNode overall = result.get("overall");
            assertThat(overall.get("samplesExpected").asLong()).isEqualTo(7);
            assertThat(overall.get("samplesScored").asLong()).isEqualTo(7);
            assertThat(overall.get("samplesPending").asLong()).isZero();
            assertThat(overall.get("primaryRate").asDouble()).isEqualTo(row(rows, SampleKeys.ALL_TASKS).getPrimaryRate());
            rowsByCheckpoint.put(ckpt, rows);
        }
        // known answers: problem images have no path (fail), solutions pass; episodes 3/3, 2/3 and 0/3 steps, then all right
        assertThat(row(rowsByCheckpoint.get("ckpt-100"), "maze").getPrimaryRate()).isEqualTo(0.0);
        assertThat(row(rowsByCheckpoint.get("ckpt-200"), "maze").getPrimaryRate()).isEqualTo(1.0);
        assertThat(row(rowsByCheckpoint.get("ckpt-100"), "mind2web").getPrimaryRate()).isCloseTo(5.0 / 9, within(1e-12));
        assertThat(row(rowsByCheckpoint.get("ckpt-200"), "mind2web").getPrimaryRate()).isEqualTo(1.0);
        JsonNode second = results.stream().filter(r -> r.get("ckpt").asText().equals("ckpt-200")).findFirst().orElseThrow();
        JsonNode vsPrevious = second.get("overall").get("vsPrevious");
        assertThat(vsPrevious.get("baselineCheckpointId").asText()).isEqualTo("ckpt-100");
        assertThat(vsPrevious.get("method").asText()).isEqualTo("paired");
        assertThat(vsPrevious.get("samples").asLong()).isEqualTo(7);
        assertThat(vsPrevious.get("difference").asDouble()).isCloseTo(1.0 - (0 + 5.0 / 3) / 7, within(1e-12));

        // what Python sent: the scorer's key, the modality inferred, every artifact's digest that of its bytes
        List<ConsumerRecord<byte[], byte[]>> raw = TopicSnapshot.all(h.clientConfig, h.topics.generations.name(), Duration.ofSeconds(30));
        int files = 0;
        int inline = 0;
        for (ConsumerRecord<byte[], byte[]> r : raw) {
            GenerationEvent e = h.topics.generations.valueSerde().deserializer().deserialize(r.topic(), r.value());
            if (!e.getRunId().equals(run)) {
                continue;
            }
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(SampleKeys.ref(SampleKeys.of(e)));
            assertThat(e.getModel()).isEqualTo("tiny-policy");
            assertThat(e.getModality()).isEqualTo(e.getTask().equals("maze") ? "image" : "ui");
            for (ArtifactRef a : e.getArtifacts()) {
                byte[] bytes;
                if (a.getUri().startsWith("data:")) {
                    bytes = Base64.getDecoder().decode(a.getUri().substring(a.getUri().indexOf(',') + 1));
                    assertThat(bytes.length).isLessThanOrEqualTo(64 * 1024);
                    inline++;
                } else {
                    Path file = Path.of(URI.create(a.getUri()));
                    assertThat(file.toRealPath()).startsWith(artifacts.toRealPath());
                    bytes = Files.readAllBytes(file);
                    files++;
                }
                assertThat(a.getSha256()).isEqualTo(Digests.sha256(bytes));
                assertThat(a.getSizeBytes()).isEqualTo(bytes.length);
                assertThat(a.getMediaType()).isEqualTo("image/png");
                assertThat(a.getWidth()).isEqualTo(MazeBenchmarkGenerator.CANVAS);
            }
        }
        assertThat(files).as("the path outputs are referenced where they are").isGreaterThanOrEqualTo(2);
        assertThat(files + inline).isEqualTo(8);
        assertThat(h.deadLetters()).isEmpty();
    }

    @Test
    void aCheckpointWithAMissingSampleTimesOutWithTheCountAndTheAnswerIsRewrittenWhenTheSampleArrives() throws Exception {
        String run = "py-missing";
        Map<String, List<JsonNode>> out = reports(script("scenario_missing_sample.py", env(run)).out());
        assertThat(out.get("SCORED").get(0).get("status").asText()).as("the two submitted, expected 2").isEqualTo("complete");
        JsonNode verdict = out.get("RESULT").get(0);
        assertThat(verdict.get("status").asText()).isEqualTo("timed_out");
        assertThat(verdict.get("overall").get("samplesExpected").asLong()).isEqualTo(3);
        assertThat(verdict.get("overall").get("samplesScored").asLong()).isEqualTo(2);
        assertThat(verdict.get("overall").get("samplesPending").asLong()).isEqualTo(1);
        assertThat(verdict.get("tasks").get(0).get("task").asText()).isEqualTo("screenspot");
        assertThat(verdict.get("tasks").get(0).get("samplesPending").asLong()).isEqualTo(1);
        String doneId = verdict.get("record").get("doneId").asText();

        // the late click arrived after the answer: the scorer rewrites it, and any consumer (here Debian's kcat) sees it
        CheckpointKey key = new CheckpointKey(run, "ckpt-1");
        String topic = h.topics.checkpointStatus.name();
        List<CheckpointStatus> history = await(() -> {
            try {
                List<CheckpointStatus> seen = new ArrayList<>();
                for (var e : Kcat.decode(Kcat.read(h.kafka.bootstrapServers(), topic), h.topics.checkpointStatus.keySerde().deserializer(),
                        h.topics.checkpointStatus.valueSerde().deserializer(), topic)) {
                    if (e.getKey().equals(key) && e.getValue().getDoneId().equals(doneId)) {
                        seen.add(e.getValue());
                    }
                }
                return seen;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, s -> !s.isEmpty() && s.get(s.size() - 1).getStatus().equals("COMPLETE"), WAIT, "the rewritten answer");
        CheckpointStatus timedOut = history.get(0);
        CheckpointStatus complete = history.get(history.size() - 1);
        assertThat(timedOut.getStatus()).isEqualTo("TIMED_OUT");
        assertThat(timedOut.getDoneId()).isEqualTo(doneId);
        assertThat(complete.getDoneId()).as("the same marker, answered again").isEqualTo(doneId);
        assertThat(complete.getOverall().getSamplesPending()).isZero();
        assertThat(complete.getOverall().getPrimaryRate()).isEqualTo(1.0);
        assertThat(complete.getDecidedAt()).isEqualTo(timedOut.getDecidedAt());
        assertThat(complete.getRows()).contains(h.leaderboard().get(new LeaderboardKey(run, "ckpt-1", "screenspot")));
    }

    @Test
    void framesBecomeAnMp4ThatTheScorerDecodes() throws Exception {
        SystemPackages.require(SystemPackages.runs("ffmpeg", "-version"), "ffmpeg is missing: install the Debian package ffmpeg (.ci/run does)",
                "mmgr.interop.required");
        String run = "py-video";
        Map<String, String> env = withMazes(env(run));
        Map<String, List<JsonNode>> out = reports(script("scenario_frames.py", env).out());
        JsonNode sent = out.get("EVENT").get(0);
        assertThat(sent.get("modality").asText()).isEqualTo("video");
        assertThat(sent.get("artifact").get("mediaType").asText()).isEqualTo("video/mp4");
        int frames = sent.get("artifact").get("frameCount").asInt();

        String sample = JsonAvro.read(Files.readAllLines(Path.of(env.get("MMGR_TEST_MAZE_ITEMS"))).get(0),
                io.mmgr.stream.avro.BenchmarkItem.class).getSampleId();
        SampleKey key = new SampleKey(run, "ckpt-1", "maze", sample, 0);
        SampleScore score = await(h::scores, s -> s.containsKey(key), WAIT, "the video's score").get(key);
        assertThat(score.getStatus()).as("%s", score).isIn("COMPLETE", "PARTIAL");
        assertThat(score.getMetrics()).as("the maze pipeline read the video").containsKey("maze-pixel.frames_analyzed");
        assertThat(score.getMetrics().get("maze-pixel.frames_analyzed")).isEqualTo((double) frames);
    }

    @Test
    void outputsUploadedToS3AreReadFromTheStoreAndScoredWithNoSecretInLogsOrTopics() throws Exception {
        String run = "py-s3";
        Map<String, String> env = withMazes(env(run));
        Map<String, List<JsonNode>> out;
        String logs;
        try (LogCapture capture = new LogCapture(Level.INFO)) {
            PythonRunner.Result r = script("scenario_s3.py", env);
            out = reports(r.out());
            assertThat(r.out()).as("the script's own output").doesNotContain(s3.secretKey());
            logs = capture.text();
        }
        JsonNode result = out.get("RESULT").get(0);
        assertThat(result.get("status").asText()).as("%s", result).isEqualTo("complete");
        assertThat(row(records(result.get("rows"), LeaderboardRow.class), "maze").getPrimaryRate())
                .as("every solution, read from the store, passes").isEqualTo(1.0);
        assertThat(out.get("EVENT")).hasSize(4);
        for (JsonNode e : out.get("EVENT")) {
            JsonNode ref = e.get("artifact");
            String uri = ref.get("uri").asText();
            assertThat(uri).startsWith("s3://" + BUCKET + "/runs/" + run + "/ckpt-s3/maze/" + e.get("sample").asText() + ".seed0.");
            byte[] stored = s3.get(BUCKET, uri.substring(("s3://" + BUCKET + "/").length()));
            assertThat(ref.get("sha256").asText()).isEqualTo(Digests.sha256(stored));
        }
        assertThat(h.deadLetters()).isEmpty();
        // the key pair was really used (the store refuses unsigned reads), and shows in no log line and no record
        assertThat(logs).doesNotContain(s3.secretKey());
        assertThat(recordsWithout(s3.secretKey())).as("records searched").isGreaterThan(20);
    }

    @Test
    void aStoreThatAnswersSlowlyThenNotAtAllThenAgainKeepsTheSamplePendingUntilItIsScored() throws Exception {
        String run = "py-s3-wait";
        MazeBenchmarkGenerator.Result mazes = MazeBenchmarkGenerator.generate(artifacts.resolve("mazes"), 4,
                List.of(MazeBand.EASY), 11);
        BenchmarkItem item = JsonAvro.read(Files.readAllLines(mazes.itemsFile()).get(0), BenchmarkItem.class);
        h.publish(item);
        byte[] solution = Files.readAllBytes(mazes.itemsFile().getParent().resolve(item.getSampleId() + "-solution.png"));
        String sha = s3.put(BUCKET, "wait/" + item.getSampleId() + ".png", solution);
        SampleKey key = new SampleKey(run, "ckpt-1", "maze", item.getSampleId(), 0);
        LogCapture capture = new LogCapture(Level.INFO);
        try (capture) {
            s3Path.delay(S3_TIMEOUT.multipliedBy(2));
            h.publish(GenerationEvent.newBuilder().setRunId(run).setModel("m").setCheckpointId("ckpt-1").setTrainingStep(1)
                    .setTask("maze").setSampleId(item.getSampleId()).setModality("image").setProducedAt(Instant.now())
                    .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setMediaType("image/png").setSha256(sha)
                            .setUri("s3://" + BUCKET + "/wait/" + item.getSampleId() + ".png").build())).build());
            SampleScore slow = await(h::scores, s -> pendingReason(s.get(key)).contains("did not answer within 2 s"), WAIT,
                    "a PENDING score while the store is slow").get(key);
            assertThat(slow.getStatus()).isEqualTo("PENDING");

            s3Path.refuse();
            await(h::scores, s -> pendingReason(s.get(key)).contains("cannot be reached"), WAIT,
                    "a PENDING score saying the store cannot be reached");
        } finally {
            s3Path.pass();
        }
        SampleScore scored = await(h::scores, s -> s.containsKey(key) && !s.get(key).getStatus().equals("PENDING"), WAIT,
                "the score once the store answers again").get(key);
        // each wait is logged with its reason (the SDK's exceptions behind it), and never with the secret key
        assertThat(capture.text()).contains("waits for its artifact").contains("s3://" + BUCKET + "/wait/")
                .doesNotContain(s3.secretKey());
        assertThat(scored.getStatus()).as("%s", scored).isIn("COMPLETE", "PARTIAL");
        assertThat(scored.getPrimary()).as("the solution read from the store passes").isEqualTo(1.0);
        assertThat(h.deadLetters()).as("a wait loses nothing and fails nothing").noneMatch(d -> String.valueOf(d).contains(run));
    }

    /** Why the sample waits, as its score says ("" while it has none, or waits for nothing). */
    static String pendingReason(SampleScore s) {
        return s == null ? "" : String.join("; ", s.getPending().values());
    }

    /**
     * Searches every committed record of the scorer's topics (public, repartition and changelog ones; not Kafka's own)
     * for {@code secret}, with one consumer over all their partitions; returns how many were searched.
     */
    static long recordsWithout(String secret) throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        try (Admin admin = Admin.create(h.clientConfig)) {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
            admin.describeTopics(topics.stream().filter(t -> !t.startsWith("__")).toList()).allTopicNames().get()
                    .forEach((t, d) -> d.partitions().forEach(p -> partitions.add(new TopicPartition(t, p.partition()))));
        }
        Map<String, Object> conf = new HashMap<>(h.clientConfig);
        conf.remove("group.id");
        long n = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime()).as("every topic read in time").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    n++;
                    for (byte[] b : new byte[][] {r.key(), r.value()}) {
                        assertThat(b == null ? "" : new String(b, StandardCharsets.ISO_8859_1)).as("a record of %s", r.topic())
                                .doesNotContain(secret);
                    }
                }
            }
        }
        return n;
    }

    @Test
    void everyErrorOfTheClientHasItsTestAndTheyPass() throws Exception {
        SystemPackages.require(SystemPackages.runs("ffmpeg", "-version"), "ffmpeg is missing (the client's MP4 test needs it): install the "
                + "Debian package ffmpeg (.ci/run does)", "mmgr.interop.required");
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Map<String, String> env = env("py-errors");
        env.put("MMGR_TEST_CLOSED_PORT", Integer.toString(closed));
        PythonRunner.Result r = PythonRunner.run(List.of("-m", "unittest", "-v", "test_client"), env, TESTS);
        System.out.printf("python -m unittest test_client: exit %d in %.1f s (load average %s)%n", r.code(),
                r.took().toMillis() / 1000.0, Files.readString(Path.of("/proc/loadavg")).trim());
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).as(r.out()).contains("\nOK").doesNotContain("skipped");
        // librdkafka logs to the same stderr as unittest, so one of its lines can fall between a test's "..." and
        // its "ok" (e.g. "%6|1796237525.580|BGQUEUE|rdkafka#producer-4| [thrd:background]: Purging ...")
        String verdicts = r.out().replaceAll("%\\d\\|\\d+\\.\\d+\\|\\w+\\|[^\n]*\n", "");
        for (String test : List.of("test_unknown_task", "test_a_field_the_schema_does_not_have", "test_a_value_of_the_wrong_type",
                "test_a_required_field_missing", "test_the_registry_refuses_an_incompatible_schema",
                "test_artifact_outside_the_directory", "test_a_symlink_out_of_the_directory", "test_broker_unreachable",
                "test_registry_unreachable", "test_topics_missing", "test_delivery_refused_by_the_broker",
                "test_frames_without_an_encoder", "test_no_scorer_answers", "test_modality_not_accepted",
                "test_web_without_the_token", "test_web_with_a_wrong_token", "test_web_token_from_the_environment",
                "test_web_unreachable", "test_s3_upload_sends_the_reference_and_digest", "test_s3_bucket_missing",
                "test_s3_store_unreachable")) {
            assertThat(verdicts).as("%s ran and passed", test).containsPattern(test + " \\(.*\\) \\.\\.\\. ok");
        }
    }
}
