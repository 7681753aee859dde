package io.mmgr.stream.topology;

import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.CostClass;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.ParkedEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.InMemorySchemaRegistry;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.topology.intake.IntakeTopology;
import io.mmgr.stream.topology.intake.ItemWait;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intake's wait for benchmark items (ItemWaitProcessor), on TopologyTestDriver: intake and item
 * validation built with their own builder methods, the real serdes (the shared {@link TopologyFixture}), and
 * the driver's wall clock moved by hand.
 */
@Tag("topology")
class ItemWaitTopologyTest {

    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration TICK = Duration.ofMillis(250);
    static final ItemWait A_MINUTE = new ItemWait(Duration.ofSeconds(60), 10_000, 64L << 20);

    @TempDir
    Path stateDir;

    TopologyFixture fx;
    TopologyTestDriver driver;
    Topics topics;
    TestInputTopic<byte[], byte[]> generations;
    TestInputTopic<String, BenchmarkItem> benchmark;
    TestOutputTopic<SampleKey, SamplePlan> plans;
    TestOutputTopic<SampleKey, EvaluationRequest> evaluations;
    TestOutputTopic<byte[], DeadLetter> deadLetters;
    KeyValueStore<Long, ParkedEvent> parked;

    void start(ItemWait wait) {
        fx = TopologyFixture.builder("t.", stateDir).settings(s -> s.withPartitions(1)).startingAt(START)
                .context(c -> c.check(new InputCheck(InputLimits.DEFAULTS)).itemWait(wait))
                .subFlows((builder, ctx) -> {
                    IntakeTopology.build(builder, ctx.intakeDeps()).to(planTopic(ctx).name(), planTopic(ctx).produced("test-plans-sink"));
                    IntakeTopology.validateItems(builder, ctx.intakeDeps());
                });
        driver = fx.driver;
        topics = fx.topics;
        generations = fx.rawInput(topics.generations);
        benchmark = fx.input(topics.benchmark);
        plans = fx.output(planTopic(fx.context));
        evaluations = fx.output(topics.evaluationRequests(CostClass.IMAGE));
        deadLetters = fx.deadLetters();
        parked = fx.store(fx.stores.parkedEvents);
    }

    /** Where this test sends intake's plans (assembly's input in the whole scorer). */
    static Topic<SampleKey, SamplePlan> planTopic(ScorerContext ctx) {
        return new Topic<>("t.plans", ctx.serdes().forKeys(SampleKey.class), ctx.serdes().forValues(SamplePlan.class));
    }

    @AfterEach
    void close() {
        if (driver != null) {
            fx.close();
        }
    }

    /**
     * Lets {@code d} pass as a running scorer sees it: its wall-clock punctuator fires every tick. (One jump of the
     * driver's clock is one late punctuation: a stall, which does not count as waiting; see stallsDoNotCount...)
     */
    void advance(Duration d) {
        for (Duration left = d; !left.isZero(); ) {
            Duration step = left.compareTo(TICK) < 0 ? left : TICK;
            driver.advanceWallClockTime(step);
            left = left.minus(step);
        }
    }

    void publishItem(String sample) {
        benchmark.pipeInput(SampleKeys.itemKey("echo", sample), Fixtures.item("echo", sample, 1));
    }

    /** Publishes the event under {@code key}; returns its value bytes. */
    byte[] publish(byte[] key, GenerationEvent e) {
        byte[] value = topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e);
        generations.pipeInput(key, value);
        return value;
    }

    byte[] publish(GenerationEvent e) {
        return publish("k".getBytes(StandardCharsets.UTF_8), e);
    }

    /**
     * An image sample (the echo task's {@code cost} 1), so that each planning shows as an evaluation request
     * on the image queue (a light one is evaluated at intake and sends none).
     */
    static GenerationEvent event(String sample, double quality) {
        return Fixtures.event("run", "c1", 1, "echo", sample, 0, Map.of("ok", 1.0, "quality", quality, "cost", 1.0));
    }

    long parkedCount() {
        try (var all = parked.all()) {
            long n = 0;
            while (all.hasNext()) {
                all.next();
                n++;
            }
            return n;
        }
    }

    /** The quality value of each evaluation request, in output order: which generation was planned when. */
    List<Double> plannedQualities() {
        return evaluations.readValuesToList().stream().map(r -> r.getEvent().getInputs().getValues().get("quality")).toList();
    }

    @Test
    void anEventBeforeItsItemIsPlannedOnceTheItemArrives() {
        start(ItemWait.DEFAULTS);
        publish(event("s1", 0.3));
        advance(Duration.ofSeconds(5));
        assertThat(plans.isEmpty()).isTrue();
        assertThat(deadLetters.isEmpty()).as("the event waits, it is not dead-lettered").isTrue();
        assertThat(parkedCount()).isEqualTo(1);

        // the item has been missing for 5 s, so it is looked up every 2 s by now: released within that
        publishItem("s1");
        advance(TICK);
        advance(Duration.ofMillis(1750));
        var plan = plans.readKeyValuesToList();
        assertThat(plan).hasSize(1);
        assertThat(plan.get(0).key).isEqualTo(new SampleKey("run", "c1", "echo", "s1", 0));
        assertThat(plan.get(0).value.getPlannedParts()).containsExactly("echo");
        assertThat(plannedQualities()).containsExactly(0.3);
        assertThat(parkedCount()).isZero();

        advance(Duration.ofSeconds(120));
        assertThat(plans.isEmpty()).as("planned once, not again").isTrue();
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void eventsWaitingForOneItemLeaveInArrivalOrderAndALaterOneDoesNotOvertakeThem() {
        start(ItemWait.DEFAULTS);
        publish(event("s1", 0.1));
        publish(event("s2", 0.9));
        publish(event("s1", 0.2));
        publish(event("s1", 0.3));
        assertThat(parkedCount()).isEqualTo(4);

        // the item appears and a newer generation of s1 arrives before the punctuator has run: the waiting
        // ones go first, so the newest is planned last (assembly keeps the last plan of a sample)
        publishItem("s1");
        publish(event("s1", 0.4));
        assertThat(plannedQualities()).containsExactly(0.1, 0.2, 0.3, 0.4);
        assertThat(parkedCount()).as("s2 still waits").isEqualTo(1);

        publishItem("s2");
        advance(TICK);
        assertThat(plannedQualities()).containsExactly(0.9);
        assertThat(plans.readValuesToList()).hasSize(5);
        assertThat(deadLetters.isEmpty()).isTrue();
    }

    @Test
    void aLightEventReleasedByTheWaitIsEvaluatedThenAndItsResultTravelsOnItsPlan() {
        start(ItemWait.DEFAULTS);
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, Map.of("ok", 1.0, "quality", 0.6)));
        assertThat(parkedCount()).isEqualTo(1);
        publishItem("s1");
        advance(TICK);

        SamplePlan plan = plans.readValue();
        assertThat(plan.getPlannedParts()).containsExactly("echo");
        assertThat(plan.getResults()).singleElement().satisfies(r -> {
            assertThat(r.getGenerationId()).isEqualTo(plan.getGenerationId());
            assertThat(r.getMetrics()).containsEntry("ok", 1.0).containsEntry("quality", 0.6);
            assertThat(r.getError()).isNull();
        });
        assertThat(fx.output(topics.evaluationRequests).isEmpty()).as("no light request").isTrue();
        assertThat(evaluations.isEmpty()).isTrue();
        assertThat(deadLetters.isEmpty()).isTrue();
        assertThat(parkedCount()).isZero();
    }

    @Test
    void anEventWhoseItemIsThereGoesOnAtOnceEvenWhileOthersWait() {
        start(ItemWait.DEFAULTS);
        publish(event("waits", 0.5));
        publishItem("s1");
        publish(event("s1", 0.7));
        // no wall-clock tick: planned in the same step as it arrived, and never parked
        assertThat(plannedQualities()).containsExactly(0.7);
        assertThat(parkedCount()).as("only the event without its item").isEqualTo(1);
    }

    @Test
    void anEventWhoseItemNeverComesIsDeadLetteredAfterTheWaitWithItsReasonAndBytes() {
        start(new ItemWait(Duration.ofSeconds(5), 100, 1 << 20));
        // a key longer than a dead letter keeps: the letter still gives the whole key's size and digest
        byte[] longKey = new byte[3000];
        Arrays.fill(longKey, (byte) 'k');
        publish(event("s0", 0.0));
        byte[] value = publish(longKey, event("never", 0.5));
        advance(Duration.ofSeconds(4));
        assertThat(deadLetters.isEmpty()).isTrue();

        advance(Duration.ofMillis(1250));
        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertThat(letters).hasSize(2);
        DeadLetter letter = letters.stream().filter(l -> l.getSampleRef().equals("run/c1/echo/never#0")).findFirst().orElseThrow();
        assertThat(letter.getStage()).isEqualTo("intake");
        assertThat(letter.getReason()).startsWith("no benchmark item for task 'echo', sample 'never' after waiting 5 s for it "
                + "(mmgr.intake.item-wait-ms): publish it to t.benchmark first")
                .contains("t.dead-letter (stage intake:benchmark)");
        assertThat(letter.getSourceTopic()).isEqualTo("t.generations");
        assertThat(letter.getSourceOffset()).isEqualTo(1);
        assertThat(bytes(letter.getOriginalValue())).isEqualTo(value);
        assertThat(letter.getOriginalKeyBytes()).isEqualTo(longKey.length);
        assertThat(letter.getOriginalKeySha256()).isEqualTo(DeadLetters.sha256(longKey));
        assertThat(letter.getOriginalKey().remaining()).isEqualTo(DeadLetters.KEPT_KEY_BYTES);
        assertThat(letter.getTruncated()).isTrue();
        assertThat(parkedCount()).isZero();

        // gone for good: an item published later plans nothing for it
        publishItem("never");
        advance(TICK);
        assertThat(plans.isEmpty()).isTrue();
    }

    @Test
    void aStallOfTheScorerDoesNotCountAsWaitingSoTheItemStillFindsItsEvent() {
        start(A_MINUTE);
        publish(event("late", 0.7));
        advance(Duration.ofSeconds(5));
        // the thread blocked for 90 s (a commit waiting for a broker's failover): one late punctuation
        driver.advanceWallClockTime(Duration.ofSeconds(90));
        assertThat(deadLetters.isEmpty()).as("the stall is not waiting time: 5 s + 2 s of 60 have passed").isTrue();
        advance(Duration.ofSeconds(50));
        assertThat(deadLetters.isEmpty()).as("57 s of 60").isTrue();
        assertThat(parkedCount()).isEqualTo(1);

        // its item, held up by the same stall, arrives: the event is planned, not lost
        publishItem("late");
        advance(Duration.ofSeconds(2));
        assertThat(plannedQualities()).containsExactly(0.7);
        assertThat(parkedCount()).isZero();
    }

    @Test
    void afterAStallTheWaitGoesOnAndAnItemThatNeverComesIsStillDeadLettered() {
        start(A_MINUTE);
        publish(event("never", 0.5));
        advance(Duration.ofSeconds(5));
        driver.advanceWallClockTime(Duration.ofSeconds(90));
        advance(Duration.ofSeconds(50));
        assertThat(deadLetters.isEmpty()).isTrue();
        advance(Duration.ofSeconds(6));
        assertThat(deadLetters.readValuesToList()).singleElement().satisfies(l -> assertThat(l.getReason())
                .startsWith("no benchmark item for task 'echo', sample 'never' after waiting 60 s for it"));
        assertThat(parkedCount()).isZero();
    }

    @Test
    void pastTheCapAnEventWithoutItsItemIsDeadLetteredAtOnceAndTheWaitingOnesAreStillPlanned() {
        start(new ItemWait(Duration.ofSeconds(60), 2, 1 << 20));
        publish(event("s1", 0.1));
        publish(event("s2", 0.2));
        publish(event("s3", 0.3));
        List<DeadLetter> letters = deadLetters.readValuesToList();
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).getSampleRef()).isEqualTo("run/c1/echo/s3#0");
        assertThat(letters.get(0).getReason()).startsWith("no benchmark item for task 'echo', sample 's3' yet, and 2 events")
                .contains("mmgr.intake.parked-events (2)");
        assertThat(letters.get(0).getSourceOffset()).isEqualTo(2);

        publishItem("s1");
        publishItem("s2");
        advance(TICK);
        assertThat(plannedQualities()).containsExactlyInAnyOrder(0.1, 0.2);
        // room again
        publish(event("s4", 0.4));
        assertThat(deadLetters.isEmpty()).isTrue();
        assertThat(parkedCount()).isEqualTo(1);
    }

    @Test
    void theByteCapCountsTheWaitingEventsBytes() {
        byte[] one = serialized(event("s1", 0.1));
        // room for one event, not two
        start(new ItemWait(Duration.ofSeconds(60), 100, one.length + 1 + one.length / 2));
        publish(event("s1", 0.1));
        assertThat(deadLetters.isEmpty()).isTrue();
        publish(event("s2", 0.2));
        DeadLetter letter = deadLetters.readValue();
        assertThat(letter.getSampleRef()).isEqualTo("run/c1/echo/s2#0");
        assertThat(letter.getReason()).contains("mmgr.intake.parked-bytes");
    }

    @Test
    void aReleasedEventIsReadAndCheckedAsIfItArrivedWithItsItem() {
        start(ItemWait.DEFAULTS);
        // valid at intake, but the task's precheck needs values, which only the plan step checks
        publish(Fixtures.event("run", "c1", 1, "echo", "s1", 0, null));
        assertThat(deadLetters.isEmpty()).isTrue();
        publishItem("s1");
        advance(TICK);
        DeadLetter letter = deadLetters.readValue();
        assertThat(letter.getReason()).isEqualTo("echo: inputs.values is missing");
        assertThat(letter.getSourceOffset()).isZero();
        assertThat(letter.getSourceTopic()).isEqualTo("t.generations");
        assertThat(plans.isEmpty()).isTrue();
    }

    @Test
    void settingsAreReadFromMmgrIntakePropertiesAndATypoIsAnError() {
        ItemWait w = ItemWait.of(Map.of("mmgr.intake.item-wait-ms", "1500", "mmgr.intake.parked-events", "7",
                "mmgr.intake.parked-bytes", "4096", "bootstrap.servers", "x:1"));
        assertThat(w).isEqualTo(new ItemWait(Duration.ofMillis(1500), 7, 4096));
        assertThat(ItemWait.of(Map.of())).isEqualTo(ItemWait.DEFAULTS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ItemWait.of(Map.of("mmgr.intake.item-wait", "5")))
                .hasMessageContaining("unknown setting mmgr.intake.item-wait");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ItemWait.of(Map.of("mmgr.intake.parked-events", "many")))
                .hasMessageContaining("mmgr.intake.parked-events must be a whole number");
    }

    /** The serialized size of an event as the topology will see it (registry wire format). */
    byte[] serialized(GenerationEvent e) {
        AvroSerdes serdes = new AvroSerdes(new InMemorySchemaRegistry(), true);
        return new Topics("t.", 1, (short) 1, serdes).generations.valueSerde().serializer().serialize("t.generations", e);
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
