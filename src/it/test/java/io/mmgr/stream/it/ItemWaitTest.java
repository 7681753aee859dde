package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.intake.ItemWait;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real broker: an event that reaches intake before its benchmark item (published just before it,
 * or read from a backlog side by side with it, or waiting when the scorer stops) is scored once the
 * item is there, exactly once, and is never dead-lettered; an event whose item never comes is
 * dead-lettered after the wait, saying why. The samples are {@link RestartTest}'s Mind2Web episodes,
 * right for even numbers and wrong for odd ones.
 */
@Tag("integration")
class ItemWaitTest {

    static final Duration WAIT = Duration.ofSeconds(120);
    static final int SAMPLES = 120;

    @TempDir
    Path dir;

    static ScorerSettings settings(String prefix) {
        return ScorerSettings.defaults().withPrefix(prefix).withPartitions(3).withApplicationId(prefix + "scorer");
    }

    /**
     * Every sample scored once, right or wrong as published, planned once with each part evaluated once, and no
     * dead letter. Mind2Web's parts are light, evaluated at intake and carried on the plan: a sample planned once
     * is one write of the assembly store (its changelog's record) and no evaluation request or cv-result at all.
     */
    static void assertScoredExactlyOnce(ScorerHarness h, List<GenerationEvent> events) {
        Map<SampleKey, SampleScore> scores = await(h::scores, s -> events.stream().allMatch(e -> s.containsKey(SampleKeys.of(e))),
                WAIT, "a score for each of the " + events.size() + " samples");
        int parts = TaskCatalog.load().find("mind2web").orElseThrow().evaluators().size();
        Map<SampleKey, Integer> requests = h.recordsPerSample(h.topics.evaluationRequests.name());
        Map<SampleKey, Integer> cvResults = h.recordsPerSample(h.topics.cvResults.name());
        Map<SampleKey, Integer> assemblyWrites = h.recordsPerSample(h.changelog(h.stores.assembly));
        Map<SampleKey, Integer> scoreRecords = h.recordsPerSample(h.topics.sampleScores.name());
        for (GenerationEvent e : events) {
            SampleKey k = SampleKeys.of(e);
            boolean right = e.getInputs().getUiActions().get(0).getElement().equals("e" + e.getSampleId().substring(2));
            assertThat(scores.get(k).getPrimary()).as("score of %s", SampleKeys.ref(k)).isEqualTo(right ? 1.0 : 0.0);
            assertThat(scores.get(k).getPartsUsed()).as("parts of %s", SampleKeys.ref(k)).hasSize(parts);
            assertThat(assemblyWrites.get(k)).as("assembly writes of %s (planned once, its parts on the plan)", SampleKeys.ref(k))
                    .isEqualTo(1);
            assertThat(requests.get(k)).as("evaluation requests of %s (light: evaluated at intake)", SampleKeys.ref(k)).isNull();
            assertThat(cvResults.get(k)).as("cv-results of %s", SampleKeys.ref(k)).isNull();
            assertThat(scoreRecords.get(k)).as("score records of %s", SampleKeys.ref(k)).isEqualTo(1);
        }
        assertThat(h.deadLetters()).as("dead letters").isEmpty();
    }

    @Test
    void anEventPublishedRightAfterItsItemIsScoredOnce() throws Exception {
        try (ScorerHarness h = new ScorerHarness(dir, settings("race."))) {
            List<GenerationEvent> events = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                GenerationEvent e = RestartTest.event(i, i % 2 == 0);
                h.publish(RestartTest.item(i));
                h.publish(e); // no wait: the item is not in the scorer's table yet
                events.add(e);
            }
            assertScoredExactlyOnce(h, events);
        }
    }

    @Test
    void aScorerStartingOnABacklogOfItemsAndEventsScoresThemAll() throws Exception {
        try (ScorerHarness h = ScorerHarness.withoutScorer(dir, settings("backlog."))) {
            List<GenerationEvent> events = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                GenerationEvent e = RestartTest.event(i, i % 2 == 0);
                // every third event even comes before its item
                if (i % 3 == 0) {
                    h.publish(e);
                    h.publish(RestartTest.item(i));
                } else {
                    h.publish(RestartTest.item(i));
                    h.publish(e);
                }
                events.add(e);
            }
            h.startScorer();
            assertScoredExactlyOnce(h, events);
        }
    }

    @Test
    void eventsWaitingWhenTheScorerStopsAreScoredAfterItStartsAgain() throws Exception {
        ScorerSettings settings = settings("stop.");
        List<GenerationEvent> events = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            events.add(RestartTest.event(i, i % 2 == 0));
        }
        try (ScorerHarness first = new ScorerHarness(dir, settings)) {
            events.forEach(first::publish);
            await(() -> parked(first), n -> n == events.size(), WAIT, "the events waiting for their items");
        }
        try (ScorerHarness second = new ScorerHarness(dir, settings)) {
            for (int i = 0; i < events.size(); i++) {
                second.publish(RestartTest.item(i));
            }
            assertScoredExactlyOnce(second, events);
            assertThat(parked(second)).isZero();
        }
    }

    @Test
    void anEventWhoseItemNeverComesIsDeadLetteredAfterTheWaitWhileItsNeighboursAreScored() throws Exception {
        ScorerSettings settings = settings("never.").withKafkaOverrides(Map.of(ItemWait.WAIT_MS, "3000"));
        try (ScorerHarness h = new ScorerHarness(dir, settings)) {
            GenerationEvent orphan = RestartTest.event(900, true);
            List<GenerationEvent> events = new ArrayList<>();
            Instant sent = Instant.now();
            h.publish(orphan); // its item is never published
            for (int i = 0; i < 6; i++) {
                GenerationEvent e = RestartTest.event(i, i % 2 == 0);
                h.publish(RestartTest.item(i));
                h.publish(e);
                events.add(e);
            }
            List<DeadLetter> letters = await(h::deadLetters, d -> !d.isEmpty(), WAIT, "the orphan's dead letter");
            assertThat(letters).hasSize(1);
            DeadLetter letter = letters.get(0);
            assertThat(letter.getSampleRef()).isEqualTo("restart/c1/mind2web/ep900#0");
            assertThat(letter.getStage()).isEqualTo("intake");
            assertThat(letter.getReason()).isEqualTo("no benchmark item for task 'mind2web', sample 'ep900' after waiting 3 s for "
                    + "it (mmgr.intake.item-wait-ms): publish it to never.benchmark first; an item refused by intake's checks has "
                    + "its own dead letter in never.dead-letter (stage intake:benchmark)");
            assertThat(letter.getSourceTopic()).isEqualTo("never.generations");
            assertThat(letter.getOriginalValue()).isEqualTo(ByteBuffer.wrap(h.topics.generations.valueSerde().serializer()
                    .serialize(h.topics.generations.name(), orphan)));
            // it waited its time first (parked after it was sent, so at least the wait after that)
            assertThat(Duration.between(sent, letter.getFailedAt())).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
            assertThat(h.scores()).doesNotContainKey(SampleKeys.of(orphan));
            await(() -> parked(h), n -> n == 0, WAIT, "nothing left waiting");

            // the neighbours, published right after it: each scored once, none dead-lettered
            Map<SampleKey, SampleScore> scores = await(h::scores, s -> events.stream().allMatch(e -> s.containsKey(SampleKeys.of(e))),
                    WAIT, "a score for each of the neighbours");
            Map<SampleKey, Integer> scoreRecords = h.recordsPerSample(h.topics.sampleScores.name());
            for (GenerationEvent e : events) {
                assertThat(scores.get(SampleKeys.of(e)).getPrimary()).isEqualTo(e.getSampleId().equals("ep0")
                        || e.getSampleId().equals("ep2") || e.getSampleId().equals("ep4") ? 1.0 : 0.0);
                assertThat(scoreRecords.get(SampleKeys.of(e))).isEqualTo(1);
            }
            assertThat(h.deadLetters()).as("dead letters").extracting(DeadLetter::getSampleRef).containsExactly(letter.getSampleRef());
        }
    }

    /** Events in the scorer's store of events waiting for their item (all partitions of this instance). */
    static long parked(ScorerHarness h) {
        try {
            var store = h.scorer.streams().store(StoreQueryParameters.fromNameAndType(h.scorer.stores().parkedEvents.name(),
                    QueryableStoreTypes.<Long, Object>keyValueStore()));
            long n = 0;
            try (var all = store.all()) {
                while (all.hasNext()) {
                    all.next();
                    n++;
                }
            }
            return n;
        } catch (RuntimeException e) {
            return -1; // not queryable while the scorer (re)balances
        }
    }
}
