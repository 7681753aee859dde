package io.mmgr.stream.tasks.magma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalCaseException;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.TaskFamily;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code eval robot} adapter: trial lines grouped by (suite, task) in the order of each task's first
 * line, one task's trials the event and item the stream would get, and the protocol and repeated-trial
 * errors at the line that breaks them.
 */
@Tag("unit")
class RobotEvalCaseTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode trial(String suite, String task, int trial, boolean success, Integer protocol) {
        ObjectNode n = JSON.createObjectNode().put("suite", suite).put("task", task).put("trial", trial).put("success", success);
        if (protocol != null) {
            n.put("protocolTrials", protocol);
        }
        return n;
    }

    /** Cases at lines 1, 2, 3, ... */
    private static List<EvalCase> cases(ObjectNode... lines) {
        List<EvalCase> out = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            out.add(new EvalCase(lines[i], i + 1));
        }
        return out;
    }

    private static List<EvalAdapter.Group> samples(List<EvalCase> cases) throws Exception {
        return TaskFamily.evalAdapter("robot").samples(cases);
    }

    @Test
    void tasksComeInTheOrderOfTheirFirstLineEachOfItsSuite() throws Exception {
        List<EvalAdapter.Group> groups = samples(cases(
                trial("libero-goal", "open drawer", 0, true, null),
                trial("simplerenv-google-robot", "pick can", 0, false, 27),
                // the same task name in another suite is another task
                trial("libero-spatial", "open drawer", 0, false, null),
                trial("libero-goal", "open drawer", 3, false, 50),
                trial("simplerenv-google-robot", "pick can", 1, true, null)));

        assertThat(groups).extracting(EvalAdapter.Group::key).containsExactly("open drawer", "pick can", "open drawer");
        assertThat(groups).extracting(EvalAdapter.Group::line).containsExactly(1, 2, 3);
        assertThat(groups).extracting(g -> g.sample().event().getTask())
                .containsExactly("libero-goal", "simplerenv-google-robot", "libero-spatial");

        EvalSample goal = groups.get(0).sample();
        assertThat(goal.item().getTask()).isEqualTo("libero-goal");
        assertThat(goal.event().getModality()).isEqualTo("robot");
        assertThat(goal.event().getInputs().getTrials()).extracting(RobotTrial::getTrial).containsExactly(0, 3);
        assertThat(goal.event().getInputs().getTrials()).extracting(RobotTrial::getSuccess).containsExactly(true, false);
        assertThat(MagmaTruth.of(goal.item().getGroundTruth()).protocolTrials()).as("given on a later line").isEqualTo(50);

        assertThat(MagmaTruth.of(groups.get(1).sample().item().getGroundTruth()).protocolTrials()).isEqualTo(27);
        assertThat(MagmaTruth.of(groups.get(2).sample().item().getGroundTruth()).protocolTrials()).as("the suite's default")
                .isNull();
    }

    @Test
    void aSecondProtocolNamesTheTasksFirstLine() {
        assertThatThrownBy(() -> samples(cases(
                trial("libero-goal", "a", 0, true, null),
                trial("libero-goal", "b", 0, true, 50),
                trial("libero-goal", "a", 1, true, 50),
                trial("libero-goal", "a", 2, true, 40))))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(4))
                .hasMessage("protocolTrials 40 differs from 50 given for the same task on line 1");
    }

    @Test
    void aRepeatedTrialIsNamedAtTheLineThatRepeatsIt() {
        assertThatThrownBy(() -> samples(cases(
                trial("libero-goal", "a", 0, true, null),
                trial("libero-10", "a", 0, true, null),
                trial("libero-goal", "a", 0, false, null))))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(3))
                .hasMessage("trial 0 of task 'a' appears twice");
    }

    @Test
    void fieldErrorsNameTheLineInFieldOrder() {
        ObjectNode noSuccess = trial("libero-goal", "a", 1, true, null);
        noSuccess.remove("success");
        noSuccess.put("trial", "one");
        assertThatThrownBy(() -> samples(cases(trial("libero-goal", "a", 0, true, null), noSuccess)))
                .isInstanceOfSatisfying(EvalCaseException.class, e -> assertThat(e.line()).isEqualTo(2))
                .hasMessage("'trial' must be an integer");
        ObjectNode badProtocol = trial("libero-goal", "a", 0, true, null).put("protocolTrials", 2.5);
        assertThatThrownBy(() -> samples(cases(badProtocol))).hasMessage("'protocolTrials' must be an integer");
    }
}
