package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.topology.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.topology.intake.IntakeTopology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a real broker: an event that reaches intake before its benchmark item (published just before it,
 * or read from a backlog side by side with it, or waiting when the scorer stops) is scored once the
 * item is there, exactly once, and is never dead-lettered. The samples are {@link RestartTest}'s
 * Mind2Web episodes, right for even numbers and wrong for odd ones.
 */
class ItemWaitTest {

    static final Duration WAIT = Duration.ofSeconds(120);
    static final int SAMPLES = 120;

    @TempDir
    Path dir;

    static ScorerSettings settings(String prefix) {
        return ScorerSettings.defaults().withPrefix(prefix).withPartitions(3).withApplicationId(prefix + "scorer");
    }

    /** Every sample scored once, right or wrong as published, each part requested once, and no dead letter. */
    static void assertScoredExactlyOnce(ScorerHarness h, List<GenerationEvent> events) {
        Map<SampleKey, SampleScore> scores = await(h::scores, s -> events.stream().allMatch(e -> s.containsKey(SampleKeys.of(e))),
                WAIT, "a score for each of the " + events.size() + " samples");
        int parts = TaskCatalog.load().find("mind2web").orElseThrow().evaluators().size();
        Map<SampleKey, Integer> requests = h.recordsPerSample(h.topics.evaluationRequests.name());
        Map<SampleKey, Integer> scoreRecords = h.recordsPerSample(h.topics.sampleScores.name());
        for (GenerationEvent e : events) {
            SampleKey k = SampleKeys.of(e);
            boolean right = e.getInputs().getUiActions().get(0).getElement().equals("e" + e.getSampleId().substring(2));
            assertThat(scores.get(k).getPrimary()).as("score of %s", SampleKeys.ref(k)).isEqualTo(right ? 1.0 : 0.0);
            assertThat(requests.get(k)).as("evaluation requests of %s (planned once)", SampleKeys.ref(k)).isEqualTo(parts);
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

    /** Events in the scorer's store of events waiting for their item (all partitions of this instance). */
    static long parked(ScorerHarness h) {
        try {
            var store = h.scorer.streams().store(StoreQueryParameters.fromNameAndType(IntakeTopology.PARKED_STORE,
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
