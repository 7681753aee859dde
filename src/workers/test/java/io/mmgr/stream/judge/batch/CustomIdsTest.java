package io.mmgr.stream.judge.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Custom ids meet Anthropic's rule for any request key, are stable across restarts and tell keys apart. */
@Tag("unit")
class CustomIdsTest {

    @Test
    void anyRequestKeyMapsToAValidStableDistinctId() {
        String longOdd = "magma/ckpt-0007/sample 0042 ✓#rubric:v3|" + "x".repeat(500);
        assertThat(CustomIds.valid(longOdd)).isFalse();
        String id = CustomIds.of(longOdd);
        assertThat(id).matches("^[a-zA-Z0-9_-]{1,64}$");
        assertThat(CustomIds.of(longOdd)).isEqualTo(id);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(CustomIds.of("sample-" + i + "#rubric"));
        }
        assertThat(ids).hasSize(10_000).allMatch(CustomIds::valid);
    }

    @Test
    void aLineRefusesAnInvalidIdOrAMultiLineBody() {
        assertThatThrownBy(() -> new BatchLine("has space", "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchLine("x".repeat(65), "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchLine("ok", "{\n}")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new BatchLine("ok_-1", "{\"a\":\"é\"}").bytes()).isEqualTo(10);
    }
}
