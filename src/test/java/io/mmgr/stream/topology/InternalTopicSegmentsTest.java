package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The internal topics' segment size, which bounds what the broker re-reads of each partition after a
 * crash: small, but always larger than any record the scorer may write (the broker refuses a batch
 * larger than its topic's segment).
 */
@Tag("unit")
class InternalTopicSegmentsTest {

    static long segmentBytes(RecordCaps caps) {
        Properties p = ScoringTopology.streamsConfig(ScorerSettings.defaults(), "unused:9092", "http://unused", Path.of("state"),
                "mmgr.dead-letter", caps);
        Map<String, Object> originals = new StreamsConfig(p).originalsWithPrefix(StreamsConfig.TOPIC_PREFIX);
        return Long.parseLong(String.valueOf(originals.get(TopicConfig.SEGMENT_BYTES_CONFIG)));
    }

    @Test
    void segmentsAreSmallWithKafkasLimitsAndGrowWithARaisedOne() {
        assertThat(segmentBytes(RecordCaps.kafkaDefaults())).isEqualTo(ScoringTopology.INTERNAL_SEGMENT_BYTES)
                .isGreaterThan(2L * RecordCaps.kafkaDefaults().largest());
        RecordCaps raised = new RecordCaps(Map.of("mmgr.generations", 8 << 20), 1_048_588);
        assertThat(segmentBytes(raised)).as("a topic raised to 8 MiB").isEqualTo(2L * (8 << 20));
        RecordCaps brokerRaised = new RecordCaps(Map.of(), 3 << 20);
        assertThat(segmentBytes(brokerRaised)).as("internal topics take the broker's limit").isGreaterThanOrEqualTo(2L * (3 << 20));
    }

    @Test
    void restoreAndGlobalConsumersDoNotWaitHalfASecondAtTheEndOfEachPartition() {
        StreamsConfig c = new StreamsConfig(ScoringTopology.streamsConfig(ScorerSettings.defaults(), "unused:9092",
                "http://unused", Path.of("state"), "mmgr.dead-letter", RecordCaps.kafkaDefaults()));
        assertThat((Integer) c.getGlobalConsumerConfigs("c").get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThan(100);
        assertThat((Integer) c.getRestoreConsumerConfigs("c").get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThan(100);
        assertThat(c.getMainConsumerConfigs("g", "c", 0)).as("the main consumer keeps Kafka's wait")
                .doesNotContainEntry(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
    }
}
