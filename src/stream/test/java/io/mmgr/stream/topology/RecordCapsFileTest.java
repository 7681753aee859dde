package io.mmgr.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/** The record limits a start keeps for the next one, which builds its topology with them before the broker answers. */
@Tag("unit")
class RecordCapsFileTest {

    @TempDir
    Path dir;

    @Test
    void theLimitsReadBackAreTheOnesStoredAndAChangedLimitIsNoticed() throws Exception {
        RecordCaps read = new RecordCaps(Map.of("mmgr.generations", 1_048_588, "mmgr.dead-letter", 4_194_304), 2_000_000);
        Path file = dir.resolve("streams").resolve("record-caps.properties");
        read.store(file);

        RecordCaps loaded = RecordCaps.load(file).orElseThrow();
        assertThat(loaded.sameLimits(read)).isTrue();
        assertThat(loaded.maxMessageBytes("mmgr.dead-letter")).isEqualTo(4_194_304);
        assertThat(loaded.maxMessageBytes("mmgr-scorer-some-changelog")).as("a topic not listed: the broker's").isEqualTo(2_000_000);
        assertThat(loaded.largest()).isEqualTo(read.largest());

        RecordCaps raised = new RecordCaps(Map.of("mmgr.generations", 8_388_608, "mmgr.dead-letter", 4_194_304), 2_000_000);
        RecordCaps moreTopics = new RecordCaps(Map.of("mmgr.generations", 1_048_588, "mmgr.dead-letter", 4_194_304,
                "mmgr.alerts", 1_048_588), 2_000_000);
        RecordCaps otherBroker = new RecordCaps(Map.of("mmgr.generations", 1_048_588, "mmgr.dead-letter", 4_194_304), 1_048_588);
        assertThat(loaded.sameLimits(raised)).isFalse();
        assertThat(loaded.sameLimits(moreTopics)).isFalse();
        assertThat(loaded.sameLimits(otherBroker)).isFalse();
        assertThat(loaded.sameLimits(null)).isFalse();
        // internal topics Streams created after the limits were stored take the broker's limit: no change
        RecordCaps withInternal = new RecordCaps(Map.of("mmgr.generations", 1_048_588, "mmgr.dead-letter", 4_194_304,
                "mmgr-scorer-sample-scores-changelog", 2_000_000), 2_000_000);
        assertThat(loaded.sameLimits(withInternal)).isTrue();
        assertThat(withInternal.sameLimits(loaded)).isTrue();
    }

    @Test
    void noFileOrAnUnreadableOneMeansReadingTheBrokerFirst() throws Exception {
        assertThat(RecordCaps.load(dir.resolve("missing.properties"))).isEmpty();
        Path broken = dir.resolve("broken.properties");
        Files.writeString(broken, "topic.mmgr.generations=lots\n");
        assertThat(RecordCaps.load(broken)).isEmpty();
    }
}
