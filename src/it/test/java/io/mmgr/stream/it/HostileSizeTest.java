package io.mmgr.stream.it;

import static io.mmgr.stream.it.ScorerHarness.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.topology.RecordCaps;
import io.mmgr.stream.contract.SampleKeys;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

/**
 * The hostile-size corpus with Kafka's default record limit (1 MiB) on every topic but one: the
 * sample-scores topic is created beforehand with a 32 KiB limit, so that a valid sample whose score is
 * larger (many long artifact URIs, each within the input limits) shows the write-side check: its score
 * becomes a dead letter at the sink, and the samples around it are scored.
 */
class HostileSizeTest extends HostileSizeCases {

    static final int SCORES_MAX = 32 << 10;

    @Override
    int inputMax() {
        return 1_048_588; // the broker's default message.max.bytes, which topics inherit
    }

    @Override
    Map<String, String> brokerOverrides() {
        return Map.of();
    }

    @Override
    void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(prefix() + "sample-scores", 1, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact", "max.message.bytes", String.valueOf(SCORES_MAX))))).all().get();
        }
    }

    @Test
    void aScoreLargerThanItsTopicTakesIsDeadLetteredWhenWritten() throws Exception {
        String ckpt = "case-big-score";
        GenerationEvent before = valid(ckpt, 0);
        GenerationEvent big = event(ckpt, "sz-ep", 1).setArtifacts(manyArtifacts(16, 2_048)).build();
        GenerationEvent after = valid(ckpt, 2);
        assertThat(bytesOf(big).length).as("within the event limit").isLessThan(LIMITS.eventBytes());
        for (GenerationEvent e : List.of(before, big, after)) {
            h.publish(e);
        }
        verify("big-score", List.of(before, after));
        String ref = SampleKeys.ref(SampleKeys.of(big));
        DeadLetter letter = await(h::deadLetters, l -> l.stream().anyMatch(d -> ref.equals(d.getSampleRef())), WAIT,
                "the dead letter of the oversized score").stream().filter(d -> ref.equals(d.getSampleRef())).findFirst().orElseThrow();
        assertThat(letter.getStage()).isEqualTo("produce:" + prefix() + "sample-scores");
        assertThat(letter.getReason()).contains("SampleScore value for topic '" + prefix() + "sample-scores' is")
                .contains("over the " + (SCORES_MAX - RecordCaps.HEADROOM) + " bytes it may take");
        assertThat(letter.getOriginalValue()).as("a minimal letter: sizes and digest only").isNull();
        assertThat(letter.getOriginalValueSha256()).isNotNull();
        var scores = h.scores();
        assertThat(scores).doesNotContainKey(SampleKeys.of(big));
    }
}
