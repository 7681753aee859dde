package io.mmgr.stream.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class MetricKeyTest {

    @Test
    void theWireFormIsPartDotMetricAndReadsBack() {
        MetricKey k = MetricKey.of("maze-pixel", "layout_iou");
        assertThat(k.toString()).isEqualTo("maze-pixel.layout_iou");
        assertThat(MetricKey.parse("maze-pixel.layout_iou")).isEqualTo(k);
        assertThat(MetricKey.parse(k.toString())).isEqualTo(k);
        assertThat(k.isOf("maze-pixel")).isTrue();
        assertThat(k.isOf("maze")).isFalse();
        assertThat(MetricKey.wire("judge", "cross_wall")).isEqualTo(MetricKey.of("judge", "cross_wall").toString());
    }

    @Test
    void aPartMayHoldDotsTheMetricNameNot() {
        // a human part carries the labeler's id as given
        MetricKey k = MetricKey.parse("human:ann.lee.target_achievement");
        assertThat(k.part()).isEqualTo("human:ann.lee");
        assertThat(k.name()).isEqualTo("target_achievement");
        assertThat(MetricKey.parse(MetricKey.of("human:ann.lee", "cross_wall").toString()))
                .isEqualTo(MetricKey.of("human:ann.lee", "cross_wall"));

        assertThatThrownBy(() -> MetricKey.of("judge", "a.b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metric name 'a.b' of part 'judge' may not contain '.'");
    }

    @Test
    void badKeysAndPartsAreRefusedWithTheReason() {
        for (String bad : new String[] {"overall", ".overall", "judge.", "", " .x", "x. "}) {
            assertThat(MetricKey.tryParse(bad)).as(bad).isEmpty();
            assertThatThrownBy(() -> MetricKey.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("metric key '" + bad + "' is not <part>.<metric>");
        }
        assertThat(MetricKey.tryParse(null)).isEmpty();
        assertThatThrownBy(() -> MetricKey.parse(null)).hasMessage("metric key null is not <part>.<metric>");
        assertThatThrownBy(() -> MetricKey.of(" ", "x")).hasMessage("a metric key needs a part, got ' '");
        assertThatThrownBy(() -> MetricKey.of(null, "x")).hasMessage("a metric key needs a part, got none");
        assertThatThrownBy(() -> MetricKey.of("judge", ""))
                .hasMessage("a metric key needs a metric name, got '' (part 'judge')");
    }
}
