package io.mmgr.stream.topology.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleOutcome;
import io.mmgr.stream.leaderboard.AlertRule;
import io.mmgr.stream.leaderboard.Difference;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.InMemorySchemaRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The comparison rules on in-memory stores, without a topology: checkpoints of one run x task in
 * step order, each against the previous and the best earlier one, paired where they share samples,
 * and an alert only when a comparison turns into a significant drop. Expected statistics are worked
 * out by hand (exact McNemar: p = 2 * 0.5^discordant when all discordant pairs go one way).
 */
@Tag("unit")
class ComparisonProcessorTest {

    InMemorySchemaRegistry registry;
    MockProcessorContext<LeaderboardKey, SpecificRecord> context;
    ComparisonProcessor processor;
    KeyValueStore<String, BenchmarkItem> benchmark;
    long clock = 1_000;

    @BeforeEach
    void start() {
        registry = new InMemorySchemaRegistry().withoutCompatibilityChecks();
        AvroSerdes serdes = new AvroSerdes(registry, true);
        context = new MockProcessorContext<>();
        io.mmgr.stream.contract.Stores stores = new io.mmgr.stream.contract.Stores(serdes);
        store(stores.comparisonOutcomes);
        store(stores.comparisonCheckpoints);
        store(stores.comparisonResults);
        store(stores.comparisonAlerts);
        benchmark = store(stores.benchmarkItems);
        processor = new ComparisonProcessor(new ComparisonSettings(AlertRule.DEFAULT, Duration.ofSeconds(1)),
                ComparisonTopology.OwnStores.of(stores), stores.benchmarkItems);
        processor.init(context);
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private <V> KeyValueStore<String, V> store(io.mmgr.stream.contract.Store<String, V> s) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(s.name()), s.keySerde(), s.valueSerde())
                .withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    void items(int n) {
        for (int i = 0; i < n; i++) {
            benchmark.put("t/s" + i, BenchmarkItem.newBuilder().setTask("t").setSampleId("s" + i).setSeeds(1)
                    .setGroundTruth(GroundTruth.newBuilder().build()).build());
        }
    }

    void outcome(String checkpoint, long step, String sample, String status, Double primary) {
        processor.process(new Record<>(new SampleKey("run", checkpoint, "t", sample, 0),
                new SampleOutcome(step, "m", status, primary), clock++));
    }

    /** {@code passing} of samples s0..s(n-1) pass: the last ones, so s0.. are the failures. */
    void checkpoint(String id, long step, int n, int passing) {
        for (int i = 0; i < n; i++) {
            outcome(id, step, "s" + i, "COMPLETE", i >= n - passing ? 1.0 : 0.0);
        }
    }

    List<CheckpointComparison> comparisons() {
        return forwarded(CheckpointComparison.class);
    }

    /** The comparison forwarded for one checkpoint. */
    CheckpointComparison comparison(String checkpoint) {
        return comparisons().stream().filter(c -> c.getCheckpointId().equals(checkpoint)).findFirst().orElseThrow();
    }

    <T> List<T> forwarded(Class<T> type) {
        return context.forwarded().stream().map(f -> f.record().value()).filter(type::isInstance).map(type::cast).toList();
    }

    void compare() {
        context.resetForwards();
        processor.compareChanged(clock += 1000);
    }

    @Test
    void aSignificantDropAgainstThePreviousCheckpointIsComparedPairedAndAlerted() {
        items(25);
        checkpoint("c1", 100, 25, 25);
        checkpoint("c2", 200, 25, 15);
        compare();

        CheckpointComparison c2 = comparison("c2");
        assertThat(c2.getRate()).isEqualTo(0.6);
        assertThat(c2.getSamplesWithPrimary()).isEqualTo(25);
        assertThat(c2.getSamplesExpected()).isEqualTo(25);
        assertThat(c2.getVsPrevious().getBaselineCheckpointId()).isEqualTo("c1");
        assertThat(c2.getVsPrevious().getMethod()).isEqualTo(Difference.PAIRED);
        assertThat(c2.getVsPrevious().getDifference()).isCloseTo(-0.4, within(1e-12));
        // 10 discordant pairs, all pass -> fail: 2 * 0.5^10
        assertThat(c2.getVsPrevious().getPValue()).isCloseTo(0.001953125, within(1e-12));
        assertThat(c2.getVsPrevious().getPartial()).isFalse();
        assertThat(c2.getVsPrevious().getSignificantDrop()).isTrue();
        assertThat(c2.getVsBest()).as("the best earlier checkpoint is the previous one: not said twice").isNull();

        List<Alert> alerts = forwarded(Alert.class);
        assertThat(alerts).singleElement().satisfies(a -> {
            assertThat(a.getKind()).isEqualTo(ComparisonProcessor.DROP_VS_PREVIOUS);
            assertThat(a.getCheckpointId()).isEqualTo("c2");
            assertThat(a.getBaselineCheckpointId()).isEqualTo("c1");
            assertThat(a.getMessage()).contains("dropped 40.0 points").contains("100.0% -> 60.0%");
        });
        List<LeaderboardKey> keys = context.forwarded().stream().map(f -> (LeaderboardKey) f.record().key()).toList();
        assertThat(keys).contains(new LeaderboardKey("run", "c2", "t"));
    }

    @Test
    void aLaterCheckpointIsAlsoComparedWithTheBestEarlierOne() {
        items(25);
        checkpoint("c1", 100, 25, 25);
        checkpoint("c2", 200, 25, 15);
        checkpoint("c3", 300, 25, 20);
        compare();

        CheckpointComparison c3 = comparison("c3");
        assertThat(c3.getVsPrevious().getBaselineCheckpointId()).isEqualTo("c2");
        assertThat(c3.getVsPrevious().getDifference()).isCloseTo(0.2, within(1e-12));
        assertThat(c3.getVsPrevious().getSignificantDrop()).isFalse();
        assertThat(c3.getVsBest().getBaselineCheckpointId()).isEqualTo("c1");
        assertThat(c3.getVsBest().getDifference()).isCloseTo(-0.2, within(1e-12));
        // 5 discordant pairs, all one way: 2 * 0.5^5 = 0.0625, not below 1%
        assertThat(c3.getVsBest().getPValue()).isCloseTo(0.0625, within(1e-12));
        assertThat(forwarded(Alert.class)).extracting(Alert::getCheckpointId).containsExactly("c2");
    }

    @Test
    void nothingChangedNothingIsRecomputedAndAStandingDropIsNotAlertedAgain() {
        items(25);
        checkpoint("c1", 100, 25, 25);
        checkpoint("c2", 200, 25, 15);
        compare();
        List<Alert> raised = forwarded(Alert.class);
        assertThat(raised).hasSize(1);

        checkpoint("c2", 200, 25, 15); // the same outcomes again
        compare();
        assertThat(context.forwarded()).isEmpty();

        outcome("c2", 200, "s24", "COMPLETE", 0.0); // one more failure: the comparison changes, the drop stands
        compare();
        assertThat(comparisons()).extracting(CheckpointComparison::getCheckpointId).containsExactly("c2");
        assertThat(comparisons().get(0).getRate()).isEqualTo(0.56);
        // not a second alert: the standing one brought up to date on its key (issue 15), with the new figures
        List<Alert> updates = forwarded(Alert.class);
        assertThat(updates).hasSize(1);
        Alert update = updates.get(0);
        assertThat(update.getKind()).isEqualTo(raised.get(0).getKind());
        assertThat(update.getRevision()).isEqualTo(raised.get(0).getRevision() + 1);
        assertThat(update.getRaisedAt()).isEqualTo(raised.get(0).getRaisedAt());
        assertThat(update.getRate()).isEqualTo(0.56);
        assertThat(update.getCleared()).isFalse();
    }

    @Test
    void aPendingSampleLeavesTheComparisonWhichSaysItIsPartial() {
        items(25);
        checkpoint("c1", 100, 25, 25);
        checkpoint("c2", 200, 25, 25);
        outcome("c2", 200, "s3", "PENDING", null);
        compare();

        CheckpointComparison c2 = comparison("c2");
        assertThat(c2.getSamplesWithPrimary()).isEqualTo(24);
        assertThat(c2.getVsPrevious().getSamples()).isEqualTo(24);
        assertThat(c2.getVsPrevious().getPartial()).isTrue();
        assertThat(c2.getVsPrevious().getNote()).startsWith("partial: compared on the 24 samples both have")
                .contains("c2: 24 of 25 scored");
    }

    @Test
    void checkpointsWithoutCommonSamplesAreComparedAsIndependentGroups() {
        // no benchmark items: nothing is known to be missing
        for (int i = 0; i < 20; i++) {
            outcome("c1", 100, "a" + i, "COMPLETE", 1.0);
            outcome("c2", 200, "b" + i, "COMPLETE", i < 10 ? 1.0 : 0.0);
        }
        compare();

        CheckpointComparison c2 = comparison("c2");
        assertThat(c2.getVsPrevious().getMethod()).isEqualTo(Difference.TWO_PROPORTION);
        assertThat(c2.getVsPrevious().getNote()).isEqualTo("independent groups: 20 and 20 samples, none scored by both");
        // pooled z: p = 30/40, se = sqrt(0.75 * 0.25 * (1/20 + 1/20)), z = -0.5 / se = -3.6515; two-sided p
        assertThat(c2.getVsPrevious().getPValue()).isCloseTo(2.6072963e-4, within(1e-9));
        assertThat(c2.getVsPrevious().getSignificantDrop()).isTrue();
    }

    @Test
    void checkpointsAreOrderedByTrainingStepNotByName() {
        items(20);
        checkpoint("b-late", 300, 20, 20);
        checkpoint("z-early", 100, 20, 20);
        checkpoint("a-middle", 200, 20, 20);
        compare();

        assertThat(comparisons()).filteredOn(c -> c.getCheckpointId().equals("b-late"))
                .singleElement().satisfies(c -> assertThat(c.getVsPrevious().getBaselineCheckpointId()).isEqualTo("a-middle"));
        assertThat(comparisons()).filteredOn(c -> c.getCheckpointId().equals("z-early"))
                .singleElement().satisfies(c -> assertThat(c.getVsPrevious()).isNull());
    }
}
