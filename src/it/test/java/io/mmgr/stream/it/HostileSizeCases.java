package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of every size the broker accepts, on each input topic ({@code generations}, {@code benchmark},
 * {@code human-labels}), on a real broker and a real scorer with the default input limits. Each case
 * sends a valid sample, the hostile record(s) and another valid sample through one partition; it passes
 * when both valid samples are scored exactly once (one record each in {@code sample-scores}, read
 * committed) and every hostile record has its dead letter with its reason, found by the SHA-256 of its
 * bytes, and no dead letter is larger than {@link DeadLetters#MAX_LETTER_BYTES}. Subclasses choose the
 * record limit of the input topics: Kafka's default, or raised by topic configuration.
 */
@Tag("integration")
@Tag("small-heap")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HostileSizeCases {

    static final String RUN = "size";
    static final Duration WAIT = Duration.ofSeconds(90);
    static final InputLimits LIMITS = InputLimits.DEFAULTS;

    @TempDir
    static Path dir;
    ScorerHarness h;
    KafkaProducer<byte[], byte[]> transactional;

    /** The largest record the input topics accept (their max.message.bytes). */
    abstract int inputMax();

    /** Broker properties and topics created before the scorer starts. */
    abstract Map<String, String> brokerOverrides();

    abstract void createTopics(String bootstrap) throws Exception;

    String prefix() {
        return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + ".";
    }

    @BeforeAll
    void start() throws Exception {
        // memory must stay bounded whatever the records' size: this corpus runs in the small-heap execution
        assertThat(Runtime.getRuntime().maxMemory()).as("heap of the small-heap surefire execution")
                .isLessThanOrEqualTo(320L << 20);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix(prefix()).withPartitions(1)
                .withApplicationId(prefix() + "scorer")
                // a sample without its item is dead-lettered after this wait (the default is a minute)
                .withKafkaOverrides(java.util.Map.of(io.mmgr.stream.topology.intake.ItemWait.WAIT_MS, "10000"));
        h = new ScorerHarness(dir.resolve("stack"), settings, ScorerApp.Options.defaults(), brokerOverrides(), b -> {
            try {
                createTopics(b);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        h.publish(item("sz-ep"));
        transactional = new KafkaProducer<>(Map.of("bootstrap.servers", h.kafka.bootstrapServers(),
                "transactional.id", prefix() + "tx", "max.request.size", 16 << 20),
                new ByteArraySerializer(), new ByteArraySerializer());
        transactional.initTransactions();
    }

    @AfterAll
    void stop() {
        if (transactional != null) {
            transactional.close();
        }
        if (h != null) {
            h.close();
        }
    }

    // ---- records ----

    static BenchmarkItem item(String sample) {
        return BenchmarkItem.newBuilder().setTask("mind2web").setSampleId(sample).setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(
                        UiAction.newBuilder().setElement("ok").setOp("CLICK").build())).build()).build();
    }

    static GenerationEvent.Builder event(String ckpt, String sample, int seed) {
        return GenerationEvent.newBuilder().setRunId(RUN).setModel("m").setCheckpointId(ckpt).setTrainingStep(1)
                .setTask("mind2web").setSampleId(sample).setSeed(seed).setModality("ui").setProducedAt(Instant.ofEpochMilli(1000))
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(
                        UiAction.newBuilder().setElement("ok").setOp("CLICK").build())).build());
    }

    static GenerationEvent valid(String ckpt, int seed) {
        return event(ckpt, "sz-ep", seed).build();
    }

    static String text(int bytes) {
        char[] c = new char[bytes];
        Arrays.fill(c, 'x');
        return new String(c);
    }

    byte[] bytesOf(GenerationEvent e) {
        return h.topics.generations.valueSerde().serializer().serialize(h.topics.generations.name(), e);
    }

    byte[] bytesOf(BenchmarkItem i) {
        return h.topics.benchmark.valueSerde().serializer().serialize(h.topics.benchmark.name(), i);
    }

    byte[] bytesOf(HumanLabel l) {
        return h.topics.humanLabels.valueSerde().serializer().serialize(h.topics.humanLabels.name(), l);
    }

    byte[] keyOf(SampleKey k) {
        return h.topics.humanLabels.keySerde().serializer().serialize(h.topics.humanLabels.name(), k);
    }

    /** A hostile record: where it goes, its bytes, and what its dead letter must say. */
    record Hostile(String topic, byte[] key, byte[] value, String stage, String reason) {
    }

    Hostile onGenerations(byte[] value, String reason) {
        return new Hostile(h.topics.generations.name(), "hostile".getBytes(StandardCharsets.UTF_8), value, "intake", reason);
    }

    Hostile onBenchmark(byte[] key, byte[] value, String reason) {
        return new Hostile(h.topics.benchmark.name(), key, value, "intake:benchmark", reason);
    }

    Hostile onLabels(byte[] key, byte[] value, String reason) {
        return new Hostile(h.topics.humanLabels.name(), key, value, "intake:labels", reason);
    }

    /** A record of exactly {@code size} bytes, so the broker's limit itself is tried. */
    static byte[] noise(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        b[0] = 0; // Confluent magic byte: what follows looks like a schema id
        return b;
    }

    /** The largest value the input topics take with a small key (record and batch overhead left out). */
    int nearMax() {
        return inputMax() - 2_048;
    }

    // ---- the check every case shares ----

    /** Valid, the hostile records, valid; all sent one by one (no transaction). */
    List<DeadLetter> rejected(String name, Hostile... hostile) throws Exception {
        String ckpt = "case-" + name;
        GenerationEvent before = valid(ckpt, 0);
        GenerationEvent after = valid(ckpt, 2);
        h.publish(before);
        for (Hostile x : hostile) {
            h.send(x.topic(), x.key(), x.value());
        }
        h.publish(after);
        return verify(name, List.of(before, after), hostile);
    }

    List<DeadLetter> verify(String name, List<GenerationEvent> validOnes, Hostile... hostile) {
        Map<SampleKey, SampleScore> scores = await(h::scores, s -> validOnes.stream().allMatch(v -> s.containsKey(SampleKeys.of(v))),
                WAIT, "the valid samples around " + name);
        for (GenerationEvent v : validOnes) {
            SampleScore s = scores.get(SampleKeys.of(v));
            assertThat(s.getPrimary()).as("%s: valid sample %s", name, SampleKeys.ref(SampleKeys.of(v))).isEqualTo(1.0);
        }
        Map<SampleKey, Integer> records = h.recordsPerSample(h.topics.sampleScores.name());
        for (GenerationEvent v : validOnes) {
            assertThat(records.get(SampleKeys.of(v))).as("%s: score records of %s", name, SampleKeys.ref(SampleKeys.of(v))).isEqualTo(1);
        }
        List<DeadLetter> letters = await(h::deadLetters, l -> Arrays.stream(hostile).allMatch(x -> find(l, x) != null),
                WAIT, "the dead letters of " + name);
        List<DeadLetter> mine = new ArrayList<>();
        for (Hostile x : hostile) {
            DeadLetter d = find(letters, x);
            assertThat(d.getStage()).as("%s stage", name).isEqualTo(x.stage());
            assertThat(d.getReason()).as("%s reason", name).contains(x.reason());
            assertThat(d.getOriginalValueBytes()).isEqualTo(x.value().length);
            int kept = Math.min(x.value().length, DeadLetters.KEPT_VALUE_BYTES);
            assertThat(bytes(d.getOriginalValue())).as("%s: the original value's first bytes", name)
                    .isEqualTo(Arrays.copyOf(x.value(), kept));
            assertThat(d.getTruncated()).as("%s: truncated", name)
                    .isEqualTo(x.value().length > DeadLetters.KEPT_VALUE_BYTES || x.key().length > DeadLetters.KEPT_KEY_BYTES);
            mine.add(d);
        }
        assertThat(letters).as("no dead letter for the valid samples (but the hostile labels keyed to them)")
                .filteredOn(d -> !mine.contains(d)).noneMatch(d -> validOnes.stream()
                        .anyMatch(v -> SampleKeys.ref(SampleKeys.of(v)).equals(d.getSampleRef())));
        for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(h.clientConfig, h.topics.deadLetter.name(), Duration.ofSeconds(30))) {
            assertThat(r.value().length).as("a dead letter's size").isLessThanOrEqualTo(DeadLetters.MAX_LETTER_BYTES);
        }
        return mine;
    }

    static DeadLetter find(List<DeadLetter> letters, Hostile x) {
        String sha = DeadLetters.sha256(x.value());
        return letters.stream().filter(d -> sha.equals(d.getOriginalValueSha256()) && x.stage().equals(d.getStage()))
                .findFirst().orElse(null);
    }

    static byte[] bytes(java.nio.ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    // ---- generations ----

    @Test
    void aThreeHundredKilobyteSampleIdWithoutItem() throws Exception {
        byte[] value = bytesOf(event("case-300k", text(300 << 10), 1).build());
        List<DeadLetter> l = rejected("300k-id", onGenerations(value, "over the limit of 262144 bytes (256 KiB) (mmgr.limits.event-bytes)"));
        assertThat(l.get(0).getLimitField()).isEqualTo("event");
        assertThat(l.get(0).getLimitSize()).isEqualTo(value.length);
        assertThat(l.get(0).getTruncated()).isTrue();
    }

    @Test
    void aLongSampleIdUnderTheEventLimitIsRefusedByItsField() throws Exception {
        byte[] value = bytesOf(event("case-100k", text(100 << 10), 1).build());
        List<DeadLetter> l = rejected("100k-id", onGenerations(value,
                "field sampleId is 102400 bytes (100 KiB), over the limit of 256 bytes (mmgr.limits.id-bytes)"));
        assertThat(l.get(0).getLimitField()).isEqualTo("sampleId");
        assertThat(l.get(0).getLimitSetting()).isEqualTo("mmgr.limits.id-bytes");
        assertThat(l.get(0).getSampleRef()).as("the reference is built from cut identifiers").hasSizeLessThan(400);
    }

    @Test
    void aThreeHundredEightyKilobyteIdWithItsItem() throws Exception {
        String id = text(380 << 10);
        BenchmarkItem item = item(id);
        byte[] itemBytes = bytesOf(item);
        byte[] itemKey = SampleKeys.itemKey("mind2web", id).getBytes(StandardCharsets.UTF_8);
        byte[] event = bytesOf(event("case-380k", id, 1).build());
        rejected("380k-id", onBenchmark(itemKey, itemBytes, "the item is"),
                onGenerations(event, "the event is"));
    }

    @Test
    void hugeInputsValuesAndTrajectories() throws Exception {
        Map<String, Double> values = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            values.put("v" + i, 0.5);
        }
        List<Pose> poses = new ArrayList<>();
        for (int i = 0; i < 10_500; i++) {
            poses.add(new Pose(i, 1.0, 2.0, null, null));
        }
        GenerationEvent manyValues = event("case-inputs", "sz-ep", 1)
                .setInputs(GenerationInputs.newBuilder().setValues(values).build()).build();
        GenerationEvent longTrajectory = event("case-inputs", "sz-ep", 3)
                .setInputs(GenerationInputs.newBuilder().setTrajectory2d(poses).build()).build();
        GenerationEvent hugeText = event("case-inputs", "sz-ep", 4)
                .setInputs(GenerationInputs.newBuilder().setText(text(nearMax() - 1_024)).build()).build();
        rejected("inputs",
                onGenerations(bytesOf(manyValues), "field inputs.values has 300 entries, over the limit of 256 (mmgr.limits.map-entries)"),
                onGenerations(bytesOf(longTrajectory), "field inputs.trajectory2d has 10500 items, over the limit of 10000 (mmgr.limits.points)"),
                onGenerations(bytesOf(hugeText), "(mmgr.limits.event-bytes)"));
    }

    @Test
    void recordsAtTheBrokersLimitOnEveryInputTopic() throws Exception {
        byte[] bigKey = text(100 << 10).getBytes(StandardCharsets.UTF_8);
        List<DeadLetter> l = rejected("at-the-limit",
                new Hostile(h.topics.generations.name(), bigKey, noise(nearMax() - bigKey.length, 1), "intake", "(mmgr.limits.event-bytes)"),
                onBenchmark("mind2web/x".getBytes(StandardCharsets.UTF_8), noise(nearMax(), 2), "(mmgr.limits.item-bytes)"),
                onLabels(keyOf(new SampleKey(RUN, "case-at-the-limit", "mind2web", "sz-ep", 0)), noise(nearMax(), 3),
                        "(mmgr.limits.label-bytes)"));
        assertThat(l.get(0).getOriginalKeyBytes()).isEqualTo(bigKey.length);
        assertThat(l.get(0).getOriginalKey().remaining()).isEqualTo(DeadLetters.KEPT_KEY_BYTES);
        assertThat(l.get(0).getOriginalKeySha256()).isEqualTo(DeadLetters.sha256(bigKey));
    }

    @Test
    void nonFiniteNumbersInEventsItemsAndLabels() throws Exception {
        GenerationEvent nan = event("case-nonfinite", "sz-ep", 1)
                .setInputs(GenerationInputs.newBuilder().setValues(Map.of("lpips", Double.NaN)).build()).build();
        GenerationEvent inf = event("case-nonfinite", "sz-ep", 3).setInputs(GenerationInputs.newBuilder()
                .setTrajectory2d(List.of(new Pose(0, Double.NEGATIVE_INFINITY, 0.0, null, null))).build()).build();
        BenchmarkItem box = BenchmarkItem.newBuilder(item("nonfinite-box")).setGroundTruth(GroundTruth.newBuilder()
                .setTargetBox(List.of(0.0, 0.0, Double.POSITIVE_INFINITY, 1.0)).build()).build();
        SampleKey labelled = new SampleKey(RUN, "case-nonfinite", "mind2web", "sz-ep", 0);
        HumanLabel label = new HumanLabel("ann", Map.of("step_success", Double.POSITIVE_INFINITY), null, Instant.EPOCH);
        rejected("nonfinite",
                onGenerations(bytesOf(nan), "field inputs.values['lpips'] is NaN: non-finite numbers"),
                onGenerations(bytesOf(inf), "field inputs.trajectory2d[0].x is -Infinity"),
                onBenchmark("mind2web/nonfinite-box".getBytes(StandardCharsets.UTF_8), bytesOf(box), "field groundTruth.targetBox[2] is Infinity"),
                onLabels(keyOf(labelled), bytesOf(label), "field metrics['step_success'] is Infinity"));
    }

    @Test
    void hostileItemsAndLabels() throws Exception {
        BenchmarkItem prompt = BenchmarkItem.newBuilder(item("long-prompt")).setPrompt(text(70 << 10)).build();
        BenchmarkItem huge = BenchmarkItem.newBuilder(item("huge-prompt")).setPrompt(text(nearMax() - 1_024)).build();
        SampleKey longKey = new SampleKey(RUN, "case-items-labels", "mind2web", text(300 << 10), 0);
        SampleKey ok = new SampleKey(RUN, "case-items-labels", "mind2web", "sz-ep", 0);
        HumanLabel longAnnotator = new HumanLabel(text(1_000), Map.of("step_success", 1.0), null, Instant.EPOCH);
        HumanLabel longNote = new HumanLabel("ann", Map.of("step_success", 1.0), text(nearMax() - 1_024), Instant.EPOCH);
        GenerationEvent forHugeItem = event("case-items-labels", "huge-prompt", 1).build();
        List<DeadLetter> l = rejected("items-labels",
                onBenchmark("mind2web/long-prompt".getBytes(StandardCharsets.UTF_8), bytesOf(prompt),
                        "field prompt is 71680 bytes (70 KiB), over the limit of 65536 bytes (64 KiB) (mmgr.limits.text-bytes)"),
                onBenchmark("mind2web/huge-prompt".getBytes(StandardCharsets.UTF_8), bytesOf(huge), "(mmgr.limits.item-bytes)"),
                onGenerations(bytesOf(forHugeItem), "no benchmark item for task 'mind2web', sample 'huge-prompt'"),
                onLabels(keyOf(longKey), bytesOf(new HumanLabel("ann", Map.of("step_success", 1.0), null, Instant.EPOCH)),
                        "key field sampleId is 307200 bytes (300 KiB), over the limit of 256 bytes"),
                onLabels(keyOf(ok), bytesOf(longAnnotator), "field annotator is 1000 bytes, over the limit of 256 bytes"),
                onLabels(keyOf(ok), bytesOf(longNote), "(mmgr.limits.label-bytes)"));
        assertThat(l.get(3).getOriginalKeyBytes()).as("the label's key, re-encoded in full").isGreaterThan(300L << 10);
    }

    @Test
    void validSamplesInTheSameTransactionAsAHostileOneAreScoredOnce() throws Exception {
        String ckpt = "case-transaction";
        GenerationEvent before = valid(ckpt, 0);
        GenerationEvent after = valid(ckpt, 2);
        Hostile hostile = onGenerations(bytesOf(event(ckpt, text(300 << 10), 1).build()), "(mmgr.limits.event-bytes)");
        Hostile hostileItem = onBenchmark("mind2web/y".getBytes(StandardCharsets.UTF_8), noise(nearMax() / 2, 7), "(mmgr.limits.item-bytes)");
        transactional.beginTransaction();
        transactional.send(new ProducerRecord<>(h.topics.generations.name(), ref(before), bytesOf(before)));
        transactional.send(new ProducerRecord<>(hostile.topic(), hostile.key(), hostile.value()));
        transactional.send(new ProducerRecord<>(hostileItem.topic(), hostileItem.key(), hostileItem.value()));
        transactional.send(new ProducerRecord<>(h.topics.generations.name(), ref(after), bytesOf(after)));
        transactional.commitTransaction();
        verify("transaction", List.of(before, after), hostile, hostileItem);
    }

    static byte[] ref(GenerationEvent e) {
        return SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * An event and its item each just under their limits (256 KiB): the evaluation request carrying both
     * (over half a megabyte) goes through topics with Kafka's default 1 MiB limit, and the sample is scored.
     */
    @Test
    void theLargestValidSampleIsScored() throws Exception {
        Map<String, String> attributes = new HashMap<>();
        for (int i = 0; i < 46; i++) {
            attributes.put("a" + i, text(4 << 10));
        }
        BenchmarkItem big = BenchmarkItem.newBuilder(item("big-item")).setPrompt(text(60 << 10)).setAttributes(attributes).build();
        GenerationEvent e = event("case-largest", "big-item", 0).setAttributes(attributes)
                .setInputs(GenerationInputs.newBuilder(event("x", "y", 0).build().getInputs()).setText(text(60 << 10)).build()).build();
        assertThat(bytesOf(big).length).isBetween(240 << 10, LIMITS.itemBytes());
        assertThat(bytesOf(e).length).isBetween(240 << 10, LIMITS.eventBytes());
        h.publish(big);
        h.publish(e);
        SampleScore s = await(h::scores, m -> m.containsKey(SampleKeys.of(e)), WAIT, "the largest valid sample").get(SampleKeys.of(e));
        assertThat(s.getPrimary()).isEqualTo(1.0);
        assertThat(h.deadLetters()).noneMatch(d -> SampleKeys.ref(SampleKeys.of(e)).equals(d.getSampleRef()));
    }

    @Test
    void aValidLabelAfterHostileOnesIsApplied() throws Exception {
        GenerationEvent sample = valid("case-labels", 0);
        h.publish(sample);
        await(h::scores, m -> m.containsKey(SampleKeys.of(sample)), WAIT, "the labelled sample");
        SampleKey key = SampleKeys.of(sample);
        HumanLabel tooMany = new HumanLabel("ann-x", new HashMap<>(), null, Instant.EPOCH);
        for (int i = 0; i < 33; i++) {
            tooMany.getMetrics().put("m" + i, 1.0);
        }
        Hostile hostile = onLabels(keyOf(key), bytesOf(tooMany), "field metrics has 33 entries, over the limit of 32 (mmgr.limits.label-metrics)");
        h.send(hostile.topic(), hostile.key(), hostile.value());
        h.send(h.topics.humanLabels.name(), keyOf(key), bytesOf(new HumanLabel("ann-ok", Map.of("step_success", 1.0), "fine", Instant.EPOCH)));
        SampleScore s = await(h::scores, m -> m.get(key).getMetrics().containsKey("human:ann-ok.step_success"), WAIT,
                "the valid label in the score").get(key);
        assertThat(s.getMetrics()).doesNotContainKey("human:ann-x.m0");
        assertThat(find(h.deadLetters(), hostile)).isNotNull();
    }

    /** Artifacts within the input limits whose score is larger than the sample-scores topic takes (see {@link HostileSizeTest}). */
    List<ArtifactRef> manyArtifacts(int n, int uriBytes) {
        List<ArtifactRef> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ArtifactRef.newBuilder().setRole("output").setUri("file:///" + i + "/" + text(uriBytes)).setMediaType("image/png").build());
        }
        return out;
    }
}
