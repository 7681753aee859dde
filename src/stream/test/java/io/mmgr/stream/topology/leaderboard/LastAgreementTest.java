package io.mmgr.stream.topology.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.PairCounts;
import io.mmgr.stream.avro.ScoreAggregate;
import io.mmgr.stream.contract.Topic;
import io.mmgr.stream.leaderboard.Aggregates;
import io.mmgr.stream.topology.EchoTask;
import io.mmgr.stream.topology.ScorerContext;
import io.mmgr.stream.topology.TopologyFixture;
import io.mmgr.stream.topology.TopologyRecords;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.kstream.Named;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A changed task row goes out with the agreement its foreign-key join last gave it ({@link LastAgreement}),
 * on TopologyTestDriver: the join's result table is fed here by hand, so that the row can change while the
 * join has not answered, which the whole leaderboard on the driver never shows (it answers at once).
 */
@Tag("topology")
class LastAgreementTest {

    static final LeaderboardKey ROW = new LeaderboardKey("run", "c1", EchoTask.TASK);

    @TempDir
    Path dir;

    TopologyFixture fx;
    TestInputTopic<LeaderboardKey, ScoreAggregate> joined;
    TestInputTopic<LeaderboardKey, ScoreAggregate> changed;
    TestOutputTopic<LeaderboardKey, ScoreAggregate> out;

    static Topic<LeaderboardKey, ScoreAggregate> topic(ScorerContext ctx, String name) {
        return new Topic<>(name, ctx.stores().taskRows.keySerde(), ctx.stores().taskRows.valueSerde());
    }

    @BeforeEach
    void start() {
        fx = TopologyFixture.builder("a.", dir).subFlows((builder, ctx) -> {
            Topic<LeaderboardKey, ScoreAggregate> j = topic(ctx, "a.joined");
            Topic<LeaderboardKey, ScoreAggregate> c = topic(ctx, "a.changed");
            Topic<LeaderboardKey, ScoreAggregate> o = topic(ctx, "a.out");
            builder.table(j.name(), j.consumed("test-joined-source"), ctx.stores().taskRows.materialized());
            builder.stream(c.name(), c.consumed("test-changed-source"))
                    .processValues(() -> new LastAgreement(ctx.stores().taskRows), Named.as("test-last-agreement"),
                            ctx.stores().taskRows.name())
                    .to(o.name(), o.produced("test-out-sink"));
        });
        joined = fx.input(topic(fx.context, "a.joined"));
        changed = fx.input(topic(fx.context, "a.changed"));
        out = fx.output(topic(fx.context, "a.out"));
    }

    @AfterEach
    void close() {
        fx.close();
    }

    static ScoreAggregate sums(double... primaries) {
        ScoreAggregate a = Aggregates.empty();
        int i = 0;
        for (double p : primaries) {
            a = Aggregates.add(a, Aggregates.ofScore(TopologyRecords.score("run", "c1", 100, EchoTask.TASK, "s" + i++, p)));
        }
        return a;
    }

    @Test
    void aRowTheJoinHasNotAnsweredIsLeftToTheJoin() {
        changed.pipeInput(ROW, sums(1, 0));
        assertThat(out.isEmpty()).isTrue();
    }

    @Test
    void aChangedRowTakesTheAgreementOfItsLastJoinAndKeepsItsOwnCounts() {
        ScoreAggregate before = sums(1);
        before.setAgreement(new HashMap<>(Map.of("judge~human", new PairCounts(3L, 1L, 0L, 2L))));
        joined.pipeInput(ROW, before);

        ScoreAggregate now = sums(1, 0, 1);
        changed.pipeInput(ROW, now);
        ScoreAggregate published = out.readValue();
        assertThat(published.getAgreement()).isEqualTo(before.getAgreement());
        ScoreAggregate expected = ScoreAggregate.newBuilder(now).build();
        expected.setAgreement(before.getAgreement());
        assertThat(published).as("everything else is the changed row's").isEqualTo(expected);
        assertThat(now.getAgreement()).as("the input is not changed in place").isEmpty();

        changed.pipeInput(ROW, null);
        assertThat(out.isEmpty()).as("a delete is left to the join").isTrue();
    }
}
