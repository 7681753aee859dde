package io.mmgr.stream.judge.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/** The waits providers announce, in the formats their documentation and real answers show. */
@Tag("unit")
class RetryHintsTest {

    @Test
    void goDurationsAsOpenAiSendsThemInItsResetHeaders() {
        assertThat(RetryHints.goDuration("1s")).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryHints.goDuration("6m0s")).isEqualTo(Duration.ofMinutes(6));
        assertThat(RetryHints.goDuration("20ms")).isEqualTo(Duration.ofMillis(20));
        assertThat(RetryHints.goDuration("1m30.5s")).isEqualTo(Duration.ofMillis(90_500));
        assertThat(RetryHints.goDuration("23h18m29.144s")).isEqualTo(Duration.ofMillis(((23 * 60 + 18) * 60 + 29) * 1000L + 144));
        assertThat(RetryHints.goDuration("0s")).isEqualTo(Duration.ZERO);
        assertThat(RetryHints.goDuration("1.5µs")).isEqualTo(Duration.ofNanos(1500));
        assertThat(RetryHints.goDuration("120ns")).isEqualTo(Duration.ofNanos(120));
        assertThat(RetryHints.goDuration("soon")).isNull();
        assertThat(RetryHints.goDuration("5")).isNull();
        assertThat(RetryHints.goDuration("1x")).isNull();
        assertThat(RetryHints.goDuration(null)).isNull();
    }

    @Test
    void protobufDurationsAsGeminiSendsThemInRetryInfo() {
        assertThat(RetryHints.protobufDuration("37s")).isEqualTo(Duration.ofSeconds(37));
        assertThat(RetryHints.protobufDuration("0.5s")).isEqualTo(Duration.ofMillis(500));
        assertThat(RetryHints.protobufDuration("1.203608125s")).isEqualTo(Duration.ofSeconds(1, 203_608_125));
        assertThat(RetryHints.protobufDuration("57.238747106s")).isEqualTo(Duration.ofSeconds(57, 238_747_106));
        assertThat(RetryHints.protobufDuration("37")).isNull();
        assertThat(RetryHints.protobufDuration("1m")).isNull();
    }

    @Test
    void geminiRetryInfoIsFoundAmongTheErrorDetails() throws Exception {
        String body = """
                {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
                  "message": "You exceeded your current quota ... Please retry in 37.57747s.",
                  "details": [
                    {"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                     "violations": [{"quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},
                    {"@type": "type.googleapis.com/google.rpc.Help", "links": []},
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}}""";
        var node = new ObjectMapper().readTree(body);
        assertThat(RetryHints.geminiRetryInfo(node)).isEqualTo(Duration.ofSeconds(37));
        assertThat(RetryHints.waitInMessage(node.path("error").path("message").asText()))
                .as("the message is more precise than the detail").isEqualTo(Duration.ofNanos(37_577_470_000L));
        assertThat(RetryHints.geminiRetryInfo(new ObjectMapper().readTree("{\"error\": {\"code\": 500}}"))).isNull();
    }

    @Test
    void waitsNamedInOpenAiMessages() {
        assertThat(RetryHints.waitInMessage("Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): "
                + "Limit 50000, Used 47949, Requested 3006. Please try again in 1.146s. Visit https://platform.openai.com/"))
                .isEqualTo(Duration.ofMillis(1146));
        assertThat(RetryHints.waitInMessage("... Please try again in 84ms. Visit ...")).isEqualTo(Duration.ofMillis(84));
        assertThat(RetryHints.waitInMessage("... Please try again in 6m0s. Visit ...")).isEqualTo(Duration.ofMinutes(6));
        assertThat(RetryHints.waitInMessage("The server had an error while processing your request.")).isNull();
    }

    @Test
    void azuresMillisecondsAndMessageAndAnthropicsResetTimes() {
        assertThat(RetryHints.millis("1500")).isEqualTo(Duration.ofMillis(1500));
        assertThat(RetryHints.millis("12.5")).isEqualTo(Duration.ofNanos(12_500_000));
        assertThat(RetryHints.millis("soon")).isNull();
        assertThat(RetryHints.waitInMessage("Requests to the ChatCompletions_Create Operation under Azure OpenAI API version "
                + "2024-10-21 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds."))
                .isEqualTo(Duration.ofSeconds(6));
        assertThat(RetryHints.waitInMessage("... Please retry after 1 second.")).isEqualTo(Duration.ofSeconds(1));
        java.time.Instant now = java.time.Instant.parse("2026-12-05T15:00:00Z");
        assertThat(RetryHints.until("2026-12-05T15:00:07.250Z", now)).isEqualTo(Duration.ofMillis(7250));
        assertThat(RetryHints.until("2026-12-05T14:59:00Z", now)).as("past: now").isEqualTo(Duration.ZERO);
        assertThat(RetryHints.until("in a while", now)).isNull();
    }

    @Test
    void retryAfterInSecondsOrAsAnHttpDate() {
        assertThat(RetryHints.retryAfter("2")).isEqualTo(Duration.ofSeconds(2));
        assertThat(RetryHints.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT")).as("in the past: now").isEqualTo(Duration.ZERO);
    }

    @Test
    void theLongerHintWins() {
        RetryHints.Hint a = new RetryHints.Hint(Duration.ofSeconds(37), "RetryInfo retryDelay");
        RetryHints.Hint b = new RetryHints.Hint(Duration.ofMillis(37_577), "the error message");
        assertThat(RetryHints.Hint.longer(a, b)).isEqualTo(b);
        assertThat(RetryHints.Hint.longer(null, a)).isEqualTo(a);
        assertThat(RetryHints.Hint.longer(a, null)).isEqualTo(a);
    }
}
