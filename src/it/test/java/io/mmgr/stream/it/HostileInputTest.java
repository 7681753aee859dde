package io.mmgr.stream.it;

import io.mmgr.stream.artifacts.Digests;
import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.judge.JudgeEngine;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.JudgeWorker;
import io.mmgr.stream.judge.protocol.ProviderClient;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import io.mmgr.stream.tasks.maze.MazeHostileMedia;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input corpus on a real broker, run with a small heap (surefire execution
 * {@code small-heap}, -Xmx256m). Each case sends a valid sample, the hostile record and another
 * valid sample, in that order, through one partition (so every stage sees them in that order), and
 * asserts the hostile record's dead letter (stage and reason) and that both valid samples were scored.
 *
 * <p>JSON bombs in a judge's answer go through the real judge worker to a second, judged scorer on the
 * same broker ({@link #jsonBombInAJudgeAnswer}).
 */
@Tag("integration")
@Tag("small-heap")
class HostileInputTest {

    static final String RUN = "hostile";
    static final Duration WAIT = Duration.ofSeconds(90);
    static final long MAX_ARTIFACT = 64L << 20;

    @TempDir
    static Path dir;
    static Path root;
    static ScorerHarness h;
    static HttpServer http;
    static BenchmarkItem maze;
    static ArtifactRef mazeSolution;
    static CompletableFuture<Path> millionFrames;

    enum Valid { MAGMA, MAZE }

    @BeforeAll
    static void start() throws Exception {
        // this corpus is the memory-bound check: it must run in the small-heap execution
        assertThat(Runtime.getRuntime().maxMemory()).as("heap of the small-heap surefire execution")
                .isLessThanOrEqualTo(320L << 20);
        root = Files.createDirectories(dir.resolve("artifacts"));
        // a real video of a million frames takes a few seconds to encode: overlap it with the broker's start
        millionFrames = CompletableFuture.supplyAsync(() -> {
            try {
                return MazeHostileMedia.longVideo(1_000_000, root.resolve("million-frames.mp4"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        http.createContext("/files/", ex -> {
            Path file = root.resolve(ex.getRequestURI().getPath().substring("/files/".length())).normalize();
            byte[] body = file.startsWith(root) && Files.isRegularFile(file) ? Files.readAllBytes(file) : null;
            ex.sendResponseHeaders(body == null ? 404 : 200, body == null ? -1 : body.length);
            if (body != null) {
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
            ex.close();
        });
        http.start();
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("hostile.").withPartitions(1)
                .withArtifactRoots(List.of(root)).withMaxArtifactBytes(MAX_ARTIFACT)
                .withArtifactHttpAllow(List.of("127.0.0.1:" + http.getAddress().getPort()))
                // a sample without its item is dead-lettered after this wait (the default is a minute)
                .withKafkaOverrides(java.util.Map.of(io.mmgr.stream.topology.intake.ItemWait.WAIT_MS, "10000"));
        h = new ScorerHarness(dir.resolve("stack"), settings);
        maze = MazeBenchmarkGenerator.generate(root.resolve("bench"), 1, List.of(MazeBand.EASY), 7).items().get(0);
        mazeSolution = maze.getArtifacts().stream().filter(a -> a.getRole().equals("solution")).findFirst().orElseThrow();
        BenchmarkItem episode = BenchmarkItem.newBuilder().setTask("mind2web").setSampleId("hv-ep").setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(
                        UiAction.newBuilder().setElement("ok").setOp("CLICK").build())).build()).build();
        h.publish(maze);
        h.publish(episode);
    }

    @AfterAll
    static void stop() {
        if (judge != null) {
            judge.close();
        }
        if (judgedScorer != null) {
            judgedScorer.close();
        }
        if (vlm != null) {
            vlm.close();
        }
        if (h != null) {
            h.close();
        }
        if (http != null) {
            http.stop(0);
        }
    }

    // ---- events ----

    static GenerationEvent.Builder base(String ckpt, String task, String sample, int seed, String modality) {
        return GenerationEvent.newBuilder().setRunId(RUN).setModel("m").setCheckpointId(ckpt).setTrainingStep(1)
                .setTask(task).setSampleId(sample).setSeed(seed).setModality(modality).setProducedAt(Instant.ofEpochMilli(1000));
    }

    static GenerationEvent magma(String ckpt, int seed) {
        return base(ckpt, "mind2web", "hv-ep", seed, "ui").setInputs(GenerationInputs.newBuilder().setUiActions(List.of(
                UiAction.newBuilder().setElement("ok").setOp("CLICK").build())).build()).build();
    }

    static GenerationEvent mazeAnswer(String ckpt, int seed, String uri, String sha, String mediaType) {
        return base(ckpt, "maze", maze.getSampleId(), seed, mediaType.startsWith("video") ? "video" : "image")
                .setArtifacts(List.of(ArtifactRef.newBuilder().setRole("output").setUri(uri).setSha256(sha)
                        .setMediaType(mediaType).build())).build();
    }

    static GenerationEvent valid(Valid kind, String ckpt, int seed) {
        return kind == Valid.MAGMA ? magma(ckpt, seed)
                : mazeAnswer(ckpt, seed, mazeSolution.getUri(), mazeSolution.getSha256(), "image/png");
    }

    static String ref(GenerationEvent e) {
        return SampleKeys.ref(SampleKeys.of(e));
    }

    static String sha(Path p) throws Exception {
        return Digests.sha256(Files.readAllBytes(p));
    }

    // ---- the check every case shares ----

    interface Hostile {
        /** Publishes the hostile record(s) of checkpoint {@code ckpt}, seed 1; returns their refs (sample ref or raw key). */
        List<String> publish(String ckpt) throws Exception;
    }

    /** Valid, hostile, valid; then the dead letters of the hostile records and both valid scores. */
    static List<DeadLetter> rejected(String name, Valid kind, Hostile hostile, String stage, String... reasons) throws Exception {
        String ckpt = "case-" + name;
        GenerationEvent before = valid(kind, ckpt, 0);
        GenerationEvent after = valid(kind, ckpt, 2);
        h.publish(before);
        List<String> refs = hostile.publish(ckpt);
        h.publish(after);
        assertThat(refs).hasSameSizeAs(reasons);

        Map<SampleKey, SampleScore> scores = await(h::scores, s -> s.containsKey(SampleKeys.of(before))
                && s.containsKey(SampleKeys.of(after)), WAIT, "the valid samples around " + name);
        for (GenerationEvent v : List.of(before, after)) {
            SampleScore s = scores.get(SampleKeys.of(v));
            assertThat(s.getPrimary()).as("%s: valid sample %s", name, ref(v)).isEqualTo(1.0);
            assertThat(s.getStatus()).isIn("COMPLETE", "PARTIAL");
        }
        List<DeadLetter> letters = await(h::deadLetters,
                l -> refs.stream().allMatch(r -> l.stream().anyMatch(d -> concerns(d, r))), WAIT, "dead letters of " + name);
        assertThat(letters).as("no dead letter for the valid samples").noneMatch(d -> concerns(d, ref(before)) || concerns(d, ref(after)));
        List<DeadLetter> mine = refs.stream()
                .map(r -> letters.stream().filter(d -> concerns(d, r)).findFirst().orElseThrow()).toList();
        for (int i = 0; i < mine.size(); i++) {
            assertThat(mine.get(i).getStage()).as("%s #%d stage", name, i).isEqualTo(stage);
            assertThat(mine.get(i).getReason()).as("%s #%d reason", name, i).containsIgnoringCase(reasons[i]);
        }
        return mine;
    }

    static boolean concerns(DeadLetter l, String ref) {
        if (ref.equals(l.getSampleRef())) {
            return true;
        }
        if (l.getOriginalKey() == null) {
            return false;
        }
        byte[] key = new byte[l.getOriginalKey().remaining()];
        l.getOriginalKey().duplicate().get(key);
        return ref.equals(new String(key, StandardCharsets.UTF_8));
    }

    /** A maze answer pointing at {@code uri}; the scorer's evaluator refuses it with a FAILED score and a dead letter. */
    static List<DeadLetter> badArtifact(String name, String uri, String sha, String mediaType, String reason) throws Exception {
        List<DeadLetter> letters = rejected(name, Valid.MAZE, ckpt -> {
            GenerationEvent e = mazeAnswer(ckpt, 1, uri, sha, mediaType);
            h.publish(e);
            return List.of(ref(e));
        }, "evaluate:maze-pixel", reason);
        // the dead letter and the FAILED score are written by different stages: the one can be read before the other
        SampleKey key = new SampleKey(RUN, "case-" + name, "maze", maze.getSampleId(), 1);
        SampleScore failed = await(h::scores, s -> s.containsKey(key), WAIT, "the FAILED score of " + name).get(key);
        assertThat(failed.getStatus()).isEqualTo("FAILED");
        assertThat(failed.getErrors().get("maze-pixel")).containsIgnoringCase(reason);
        return letters;
    }

    static byte[] raw(DeadLetter l) {
        byte[] b = new byte[l.getOriginalValue().remaining()];
        l.getOriginalValue().duplicate().get(b);
        return b;
    }

    // ---- intake ----

    @Test
    void bytesThatAreNotAvro() throws Exception {
        byte[] json = "{\"runId\": \"r\", \"task\": \"mind2web\"}".getBytes(StandardCharsets.UTF_8);
        byte[] noise = new byte[64];
        new java.util.Random(3).nextBytes(noise);
        noise[0] = 7;
        List<DeadLetter> letters = rejected("not-avro", Valid.MAGMA, ckpt -> {
            h.publishRaw(key(ckpt, "json"), json);
            h.publishRaw(key(ckpt, "noise"), noise);
            return List.of(ckpt + "/json", ckpt + "/noise");
        }, "intake", "magic byte 0x7b, expected 0x00 (the payload looks like JSON text)", "magic byte 0x07");
        assertThat(raw(letters.get(0))).isEqualTo(json);
        assertThat(raw(letters.get(1))).isEqualTo(noise);
    }

    @Test
    void avroCutShort() throws Exception {
        byte[] whole = h.topics.generations.valueSerde().serializer().serialize(h.topics.generations.name(), magma("x", 0));
        byte[] cut = Arrays.copyOf(whole, 12);
        rejected("truncated-avro", Valid.MAGMA, ckpt -> {
            h.publishRaw(key(ckpt, "cut"), cut);
            return List.of(ckpt + "/cut");
        }, "intake", "truncated Avro data");
    }

    @Test
    void unknownSchemaId() throws Exception {
        byte[] payload = ByteBuffer.allocate(20).put((byte) 0).putInt(100_000).put(new byte[15]).array();
        rejected("unknown-schema-id", Valid.MAGMA, ckpt -> {
            h.publishRaw(key(ckpt, "id"), payload);
            return List.of(ckpt + "/id");
        }, "intake", "unknown schema id 100000");
    }

    @Test
    void aNewerSchemaVersionWithAnAddedFieldIsReadNotRejected() throws Exception {
        String ckpt = "case-newer-schema";
        GenerationEvent before = magma(ckpt, 0);
        GenerationEvent newer = magma(ckpt, 1);
        GenerationEvent after = magma(ckpt, 2);
        h.publish(before);
        h.publishRaw(ref(newer).getBytes(StandardCharsets.UTF_8), withAddedField(newer));
        h.publish(after);
        Map<SampleKey, SampleScore> scores = await(h::scores, s -> List.of(before, newer, after).stream()
                .allMatch(e -> s.containsKey(SampleKeys.of(e))), WAIT, "all three samples, the newer-schema one too");
        assertThat(scores.get(SampleKeys.of(newer)).getPrimary()).isEqualTo(1.0);
        assertThat(h.deadLetters()).noneMatch(d -> concerns(d, ref(newer)));
    }

    static byte[] withAddedField(GenerationEvent event) throws Exception {
        return EvolvedEvents.withAddedField(event, new SchemaRegistryClient(h.registry.url()), h.topics.generations.name() + "-value");
    }

    @Test
    void unknownTask() throws Exception {
        rejected("unknown-task", Valid.MAGMA, ckpt -> {
            GenerationEvent e = base(ckpt, "tetris", "t1", 1, "ui").build();
            h.publish(e);
            return List.of(ref(e));
        }, "intake", "unknown task 'tetris' (known: ");
    }

    @Test
    void sampleWithoutBenchmarkItem() throws Exception {
        rejected("no-item", Valid.MAGMA, ckpt -> {
            GenerationEvent e = base(ckpt, "mind2web", "never-published", 1, "ui").build();
            h.publish(e);
            return List.of(ref(e));
        }, "intake", "no benchmark item for task 'mind2web', sample 'never-published'");
    }

    // ---- artifacts ----

    @Test
    void digestMismatch() throws Exception {
        badArtifact("digest", mazeSolution.getUri(), "ab".repeat(32), "image/png", "artifact digest mismatch");
    }

    @Test
    void etcPasswd() throws Exception {
        badArtifact("etc-passwd", "file:///etc/passwd", null, "image/png", "outside the configured artifact roots");
    }

    @Test
    void dotDotTraversal() throws Exception {
        // a real, readable maze answer, one directory above the root
        Path outside = Files.copy(Path.of(java.net.URI.create(mazeSolution.getUri())), dir.resolve("outside.png"));
        String uri = root.toUri() + "../outside.png";
        assertThat(uri).contains("/artifacts/../outside.png");
        badArtifact("dot-dot", uri, sha(outside), "image/png", "outside the configured artifact roots");
    }

    @Test
    void symlinkOutOfTheRoot() throws Exception {
        Path outside = Files.copy(Path.of(java.net.URI.create(mazeSolution.getUri())), dir.resolve("linked-target.png"));
        Path link = Files.createSymbolicLink(root.resolve("innocent.png"), outside);
        badArtifact("symlink", link.toUri().toString(), sha(outside), "image/png", "outside the configured artifact roots");
    }

    @Test
    void httpHostOffTheAllowlist() throws Exception {
        badArtifact("http-host", "http://example.org/answer.png", null, "image/png",
                "artifact host 'example.org:80' is not on the http allowlist");
    }

    @Test
    void httpFromAnAllowlistedHostIsScored() throws Exception {
        String name = Path.of(java.net.URI.create(mazeSolution.getUri())).getFileName().toString();
        String uri = "http://127.0.0.1:" + http.getAddress().getPort() + "/files/bench/" + name;
        GenerationEvent e = mazeAnswer("case-http-ok", 0, uri, mazeSolution.getSha256(), "image/png");
        h.publish(e);
        SampleScore s = await(h::scores, m -> m.containsKey(SampleKeys.of(e)), WAIT, "the answer downloaded over http")
                .get(SampleKeys.of(e));
        assertThat(s.getPrimary()).isEqualTo(1.0);
        assertThat(s.getMetrics()).containsEntry("maze-pixel.target_achievement", 1.0);
    }

    @Test
    void pngDeclaringTenGigapixels() throws Exception {
        Path png = Files.write(root.resolve("huge.png"), MazeHostileMedia.pngDeclaring(100_000, 100_000));
        badArtifact("png-100k", png.toUri().toString(), sha(png), "image/png", "declares 100000x100000");
    }

    @Test
    void truncatedMp4() throws Exception {
        var gt = io.mmgr.stream.tasks.maze.MazeTruth.of(maze.getGroundTruth());
        Path full = root.resolve("walk.mp4");
        MazeHostileMedia.correctVideo(gt.lattice(), gt.rows(), gt.cols(), gt.solutionPath(), 24, full);
        Path cut = MazeHostileMedia.truncated(full, root.resolve("walk-cut.mp4"));
        List<DeadLetter> letters = badArtifact("mp4-cut", cut.toUri().toString(), sha(cut), "video/mp4", "maze output video");
        assertThat(letters.get(0).getReason()).containsPattern("not a decodable video|truncated or corrupt|no decodable frames");
    }

    @Test
    void aMillionFrameVideo() throws Exception {
        Path video = millionFrames.get();
        badArtifact("million-frames", video.toUri().toString(), sha(video), "video/mp4", "declares 1000000 frames");
    }

    @Test
    void twoGigabyteArtifactIsRefusedBySizeBeforeReading() throws Exception {
        Path sparse = root.resolve("two-gigabytes.png");
        try (RandomAccessFile f = new RandomAccessFile(sparse.toFile(), "rw")) {
            f.setLength(2L << 30); // sparse: costs no disk; reading it would cost 2 GB of a 256 MB heap
        }
        badArtifact("two-gb", sparse.toUri().toString(), "cd".repeat(32), "image/png",
                "artifact is 2147483648 bytes, over the limit of " + MAX_ARTIFACT);
        badArtifact("two-gb-video", sparse.toUri().toString(), "cd".repeat(32), "video/mp4",
                "artifact is 2147483648 bytes, over the limit of " + MAX_ARTIFACT);
    }

    @Test
    void emptyFile() throws Exception {
        Path empty = Files.createFile(root.resolve("empty.png"));
        badArtifact("empty", empty.toUri().toString(), null, "image/png", "artifact is empty");
    }

    // ---- the judge's answers ----

    /**
     * JSON bombs in a judge's answer, from the scripted provider on loopback through the real judge
     * worker to a second scorer (its own topics, judge parts planned) on the same broker: too large
     * to read (a 100 MB string, a million keys), too deep to parse (100,000 levels, in the model's
     * answer and in the provider's envelope), and, under the size limit, a string or a key count no
     * rubric answer needs. Each ends as an INVALID verdict with its reason (a FAILED sample), its raw
     * text kept short enough for the verdict topic, and the valid samples around it are scored.
     */
    enum Bomb {
        DEEP_ANSWER("nesting depth", out -> {
            out.write("{\"final_correctness\": ");
            repeat(out, '[', 100_000);
            repeat(out, ']', 100_000);
            out.write(", \"intermediate_correctness\": 1}");
        }, false),
        DEEP_ENVELOPE("the answer body is not json", out -> {
            out.write("{\"choices\": ");
            repeat(out, '[', 100_000);
        }, true),
        HUNDRED_MEGABYTE_STRING("over the limit of " + ProviderClient.MAX_BODY_BYTES + " bytes", out -> {
            out.write("{\"final_correctness\": {\"score\": 1, \"justification\": \"");
            repeat(out, 'x', 100_000_000);
            out.write("\"}, \"intermediate_correctness\": {\"score\": 1, \"justification\": \"ok\"}}");
        }, false),
        MILLION_KEYS("over the limit of " + ProviderClient.MAX_BODY_BYTES + " bytes", out -> {
            out.write("{\"final_correctness\": 1, \"intermediate_correctness\": 1");
            for (int i = 0; i < 1_000_000; i++) {
                out.write(", \"k" + i + "\": 0");
            }
            out.write("}");
        }, false),
        LONG_STRING_UNDER_THE_LIMIT("string value length", out -> {
            out.write("{\"final_correctness\": {\"score\": 1, \"justification\": \"");
            repeat(out, 'y', 1_000_000);
            out.write("\"}, \"intermediate_correctness\": {\"score\": 1, \"justification\": \"ok\"}}");
        }, false),
        MANY_KEYS_UNDER_THE_LIMIT("token count", out -> {
            out.write("{\"final_correctness\": 1, \"intermediate_correctness\": 1");
            for (int i = 0; i < 100_000; i++) {
                out.write(", \"k" + i + "\": 0");
            }
            out.write("}");
        }, false);

        final String reason;
        final ScriptedVlmServer.Streamed text;
        final boolean wholeBody;

        Bomb(String reason, ScriptedVlmServer.Streamed text, boolean wholeBody) {
            this.reason = reason;
            this.text = text;
            this.wholeBody = wholeBody;
        }

        static void repeat(java.io.Writer out, char c, int n) throws java.io.IOException {
            char[] chunk = new char[1 << 16];
            Arrays.fill(chunk, c);
            for (int left = n; left > 0; left -= chunk.length) {
                out.write(chunk, 0, Math.min(left, chunk.length));
            }
        }
    }

    static final String JUDGED_PREFIX = "hostile-judge.";
    static ScriptedVlmServer vlm;
    static ScorerApp judgedScorer;
    static JudgeRuntime judge;
    static Topics judgedTopics;

    static ScriptedVlmServer.Action script(ScriptedVlmServer.Exchange e) {
        if (e.caseName().startsWith("bomb-")) {
            Bomb b = Bomb.valueOf(e.caseName().substring("bomb-".length()));
            return b.wholeBody ? ScriptedVlmServer.Action.streamedBody(b.text) : ScriptedVlmServer.Action.streamedAnswer(b.text);
        }
        return ScriptedVlmServer.Action.ok(Duration.ZERO, Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0));
    }

    /** The judged scorer and its worker, started by the first judge case (the other cases do not need them). */
    static synchronized void startJudge() throws Exception {
        if (judge != null) {
            return;
        }
        vlm = ScriptedVlmServer.start(HostileInputTest::script);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix(JUDGED_PREFIX).withPartitions(1).withJudge(true)
                .withApplicationId("hostile-judged").withStreamThreads(1);
        judgedScorer = ScorerApp.start(settings, h.kafka.bootstrapServers(), h.registry.url(), dir.resolve("judged"),
                Duration.ofMinutes(2));
        judgedTopics = judgedScorer.topics();
        judge = JudgeRuntime.start(JudgeSettings.builder("openai", URI.create(vlm.openAiBaseUrl()), "judge-hostile")
                        .quota(q -> q.requests(50, Duration.ofSeconds(1)))
                        .concurrency(2)
                        .timeout(Duration.ofSeconds(20))
                        .retry(r -> r.maxAttempts(2).backoff(Duration.ofMillis(50), Duration.ofMillis(200)))
                        .circuit(c -> c.failureRate(100f).openFor(Duration.ofSeconds(1)))
                        .build(),
                Map.of(), judgedTopics, new JudgeWorker.Config(h.kafka.bootstrapServers(), "hostile-judge", Map.of()),
                new LocalArtifactResolver(List.of(root), MAX_ARTIFACT, dir.resolve("judge-spill")), new SimpleMeterRegistry(),
                dir.resolve("judge-cache"));
        for (String c : List.of("judge-ok", "bomb")) {
            for (Bomb b : c.equals("bomb") ? List.of(Bomb.values()) : List.of(Bomb.DEEP_ANSWER)) {
                String sample = c.equals("bomb") ? "bomb-" + b.name() : c;
                publishJudged(BenchmarkItem.newBuilder().setTask("math").setSampleId(sample)
                        .setPrompt("case=" + sample + " Solve 3x = 12.")
                        .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build());
            }
        }
    }

    static void publishJudged(Object record) {
        if (record instanceof BenchmarkItem item) {
            String topic = judgedTopics.benchmark.name();
            h.send(topic, SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                    judgedTopics.benchmark.valueSerde().serializer().serialize(topic, item));
        } else {
            GenerationEvent e = (GenerationEvent) record;
            String topic = judgedTopics.generations.name();
            h.send(topic, ref(e).getBytes(StandardCharsets.UTF_8), judgedTopics.generations.valueSerde().serializer().serialize(topic, e));
        }
    }

    static GenerationEvent mathAnswer(String ckpt, String sample, int seed) {
        // the checkpoint in the text: every answer is a new prompt, so the judge is really called (no cache hit)
        return base(ckpt, "math", sample, seed, "text")
                .setInputs(GenerationInputs.newBuilder().setText("3x = 12, so x = 4 (" + ckpt + ")").build()).build();
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(Bomb.class)
    void jsonBombInAJudgeAnswer(Bomb bomb) throws Exception {
        startJudge();
        String ckpt = "case-bomb-" + bomb.name();
        GenerationEvent before = mathAnswer(ckpt, "judge-ok", 0);
        GenerationEvent hostile = mathAnswer(ckpt, "bomb-" + bomb.name(), 1);
        GenerationEvent after = mathAnswer(ckpt, "judge-ok", 2);
        for (GenerationEvent e : List.of(before, hostile, after)) {
            publishJudged(e);
        }
        Map<SampleKey, SampleScore> scores = await(() -> judgedScores(), s -> List.of(before, hostile, after).stream()
                .allMatch(e -> s.containsKey(SampleKeys.of(e)) && !"PENDING".equals(s.get(SampleKeys.of(e)).getStatus())),
                WAIT, "the three samples of " + bomb);
        for (GenerationEvent v : List.of(before, after)) {
            SampleScore s = scores.get(SampleKeys.of(v));
            assertThat(s.getStatus()).as("%s: valid sample %s", bomb, ref(v)).isEqualTo("COMPLETE");
            assertThat(s.getPrimary()).isEqualTo(1.0);
            assertThat(s.getMetrics()).containsEntry("judge.final_correctness", 1.0);
        }
        SampleScore failed = scores.get(SampleKeys.of(hostile));
        assertThat(failed.getStatus()).isEqualTo("FAILED");
        assertThat(failed.getPrimary()).isNull();
        assertThat(failed.getErrors().get("judge")).as("the reason of %s", bomb).containsIgnoringCase(bomb.reason);
        System.out.printf("judge answer %s: %s%n", bomb, failed.getErrors().get("judge"));

        JudgeVerdict verdict = judgedVerdicts().stream().filter(v -> "INVALID".equals(v.getStatus())
                        && failed.getErrors().get("judge").equals(v.getReason()))
                .findFirst().orElseThrow(() -> new AssertionError("no INVALID verdict for " + bomb));
        assertThat(verdict.getMetrics()).isEmpty();
        if (verdict.getRawText() != null) {
            assertThat(verdict.getRawText().length()).as("raw answer kept on the verdict").isLessThanOrEqualTo(JudgeEngine.MAX_KEPT_CHARS + 100);
        }
    }

    static Map<SampleKey, SampleScore> judgedScores() {
        return TopicSnapshot.latest(h.clientConfig, judgedTopics.sampleScores.name(), judgedTopics.sampleScores.keySerde().deserializer(),
                judgedTopics.sampleScores.valueSerde().deserializer(), Duration.ofSeconds(30));
    }

    static List<JudgeVerdict> judgedVerdicts() {
        List<JudgeVerdict> out = new java.util.ArrayList<>();
        for (var r : TopicSnapshot.all(h.clientConfig, judgedTopics.judgeVerdicts.name(), Duration.ofSeconds(30))) {
            out.add(judgedTopics.judgeVerdicts.valueSerde().deserializer().deserialize(r.topic(), r.value()));
        }
        return out;
    }

    static byte[] key(String ckpt, String what) {
        return (ckpt + "/" + what).getBytes(StandardCharsets.UTF_8);
    }
}
