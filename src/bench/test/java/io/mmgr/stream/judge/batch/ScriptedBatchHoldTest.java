package io.mmgr.stream.judge.batch;

import static io.mmgr.stream.judge.batch.BatchKit.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.bench.ScriptedBatchApi;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scripted batch APIs' hold ({@link ScriptedBatchApi#hold}), which the end-to-end kill test relies on to kill a
 * worker while its batch runs: a held batch stays in progress however often it is polled, nothing of it is answered
 * or billed, and once released it ends at the next poll with the answers the realtime script implies, each billed once.
 */
@Tag("unit")
class ScriptedBatchHoldTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(value = JudgeProtocol.class, names = {"OPENAI", "GEMINI", "ANTHROPIC"})
    void aHeldBatchStaysInProgressUntilReleasedThenEndsAnsweredAndBilledOnce(JudgeProtocol p) throws Exception {
        try (BatchKit kit = new BatchKit(p, p == JudgeProtocol.GEMINI ? "gemini-2.5-flash"
                : p == JudgeProtocol.ANTHROPIC ? "claude-sonnet-4-5" : "gpt-4.1")) {
            BatchProtocol protocol = BatchProtocols.of(kit.client, Duration.ofSeconds(15), kit.reader);
            ScriptedBatchApi api = kit.server.batchApi(p);
            api.hold(true);
            List<BatchLine> lines = kit.lines(protocol, 6);
            String id = get(protocol.create("local-held", lines));

            // each provider would end it by the second or third read (no run time is scripted); held, it runs on
            for (int i = 0; i < 6; i++) {
                assertThat(get(protocol.poll(id)).state()).as("read %d while held", i).isEqualTo(BatchStatus.State.IN_PROGRESS);
            }
            assertThat(api.billed()).as("nothing answered while held").isEmpty();

            api.hold(false);
            BatchKit.Run run = BatchKit.run(protocol, id, 3);

            assertThat(run.last().state()).isEqualTo(BatchStatus.State.ENDED);
            List<BatchOutcome.Answered> answered = run.of(BatchOutcome.Answered.class);
            assertThat(answered).hasSize(6);
            List<String> input = lines.stream().map(BatchLine::customId).toList();
            for (BatchOutcome.Answered a : answered) {
                int index = input.indexOf(a.customId());
                assertThat(index).as("a custom id of the input").isNotNegative();
                assertThat(JSON.readTree(a.reply().text()).path("final_correctness").path("score").asInt()).as(a.customId())
                        .isEqualTo(index % 2 == 0 ? 1 : 0);
            }
            assertThat(api.submitted()).hasSize(6).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
            assertThat(api.billed()).hasSize(6).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
        }
    }
}
