package io.mmgr.stream.judge.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RetryAfterTest {

    @Test
    void secondsAndHttpDatesAreRead() {
        assertThat(RetryHints.retryAfter("2")).isEqualTo(Duration.ofSeconds(2));
        assertThat(RetryHints.retryAfter(" 1.5 ")).isEqualTo(Duration.ofMillis(1500));
        String in30s = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(30));
        assertThat(RetryHints.retryAfter(in30s)).isBetween(Duration.ofSeconds(27), Duration.ofSeconds(30));
        assertThat(RetryHints.retryAfter("soon")).isNull();
        assertThat(RetryHints.retryAfter(null)).isNull();
        assertThat(RetryHints.retryAfter("-3")).isNull();
    }

    @Test
    void theKeyIsRedactedAndNeverPrinted() {
        ApiKey key = ApiKey.fromEnvironment("K", Map.of("K", "sk-abcdef123456"));
        assertThat(key.toString()).isEqualTo("$K (redacted)").doesNotContain("sk-abc");
        assertThat(key.redact("Incorrect API key provided: sk-abcdef123456.")).isEqualTo("Incorrect API key provided: ***.");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ApiKey.fromEnvironment("MISSING", Map.of()))
                .hasMessageContaining("MISSING").hasMessageContaining("not set");
    }

    @Test
    void anthropicSchemaDropsTheBoundsAnthropicRefusesAndKeepsTheRest() {
        Map<String, Object> score = new java.util.LinkedHashMap<>(Map.of("type", "number", "minimum", 0, "maximum", 1));
        Map<String, Object> binary = Map.of("type", "integer", "enum", java.util.List.of(0, 1));
        Map<String, Object> schema = Map.of("type", "object", "additionalProperties", false, "required", java.util.List.of("a", "b"),
                "properties", Map.of("a", Map.of("type", "object", "additionalProperties", false, "properties", Map.of("score", score)),
                        "b", Map.of("type", "object", "properties", Map.of("score", binary))));
        Map<String, Object> a = AnthropicClient.anthropicSchema(schema);
        assertThat(a).containsEntry("additionalProperties", false).containsEntry("required", java.util.List.of("a", "b"));
        assertThat(a).extractingByKey("properties").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("a").isEqualTo(Map.of("type", "object", "additionalProperties", false,
                        "properties", Map.of("score", Map.of("type", "number"))));
        assertThat(a).extractingByKey("properties").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("b").isEqualTo(Map.of("type", "object", "properties", Map.of("score", binary)));
    }

    @Test
    void geminiSchemaDropsWhatGeminiDoesNotTake() {
        Map<String, Object> schema = Map.of("type", "object", "additionalProperties", false,
                "properties", Map.of("x", Map.of("type", "integer", "enum", java.util.List.of(0, 1))));
        Map<String, Object> g = GeminiClient.geminiSchema(schema);
        assertThat(g).containsEntry("type", "OBJECT").doesNotContainKey("additionalProperties");
        @SuppressWarnings("unchecked")
        Map<String, Object> x = (Map<String, Object>) ((Map<String, Object>) g.get("properties")).get("x");
        assertThat(x).containsEntry("type", "INTEGER").doesNotContainKey("enum");
    }
}
