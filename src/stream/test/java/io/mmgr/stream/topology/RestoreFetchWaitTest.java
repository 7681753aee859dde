package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The consumers that restore state read a partition to its end and go on to the next; with Kafka's
 * 500 ms fetch wait the global thread spent half a second at the end of each benchmark-items
 * partition on every start. The global consumer keeps its wait after the start, when it only idles: 100 ms holds a
 * start at most a tenth of a second per partition and sends an idle broker a fifth of the fetches 20 ms did. The
 * scorer's own consumer keeps Kafka's wait (it polls all the time).
 */
@Tag("unit")
class RestoreFetchWaitTest {

    @Test
    void restoreAndGlobalConsumersDoNotWaitHalfASecondAtTheEndOfEachPartition() {
        StreamsConfig c = new StreamsConfig(ScoringTopology.streamsConfig(ScorerSettings.defaults(), "unused:9092",
                "http://unused", Path.of("state"), "mmgr.dead-letter", RecordCaps.kafkaDefaults()));
        assertThat((Integer) c.getGlobalConsumerConfigs("c").get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThanOrEqualTo(100);
        assertThat((Integer) c.getRestoreConsumerConfigs("c").get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThan(100);
        assertThat(c.getMainConsumerConfigs("g", "c", 0)).as("the main consumer keeps Kafka's wait")
                .doesNotContainKey(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG);
    }
}
