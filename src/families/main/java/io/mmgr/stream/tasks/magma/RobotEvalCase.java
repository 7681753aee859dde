package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code mmgr eval robot}'s case, one line of its trials file: one trial ({@code trial}, {@code success})
 * of a task of a suite, and optionally the trials the task's protocol prescribes ({@code protocolTrials}).
 * One task's trials are one sample of the suite's task (the suite is the stream's task), keyed by the
 * task's name, in the order of the task's first line.
 */
final class RobotEvalCase {

    private RobotEvalCase() {
    }

    private static final class TaskTrials {
        final String suite;
        final String task;
        final EvalCase first;
        Integer protocolTrials;
        final List<RobotTrial> trials = new ArrayList<>();

        TaskTrials(String suite, String task, EvalCase first, Integer protocolTrials) {
            this.suite = suite;
            this.task = task;
            this.first = first;
            this.protocolTrials = protocolTrials;
        }
    }

    static List<EvalAdapter.Group> samples(List<EvalCase> cases) {
        Map<List<String>, TaskTrials> tasks = new LinkedHashMap<>();
        for (EvalCase c : cases) {
            JsonNode n = c.fields();
            String suite = CaseFields.requiredText(c, n, "suite");
            String task = CaseFields.requiredText(c, n, "task");
            int trial = CaseFields.requiredInt(c, n, "trial");
            boolean success = CaseFields.requiredBoolean(c, n, "success");
            Integer protocol = CaseFields.optionalInt(c, n, "protocolTrials");
            TaskTrials t = tasks.computeIfAbsent(List.of(suite, task), k -> new TaskTrials(suite, task, c, protocol));
            if (protocol != null && t.protocolTrials != null && !Objects.equals(protocol, t.protocolTrials)) {
                throw c.error("protocolTrials " + protocol + " differs from " + t.protocolTrials
                        + " given for the same task on line " + t.first.line());
            }
            if (t.protocolTrials == null) {
                t.protocolTrials = protocol;
            }
            // the stream refuses repeated trials too; here the line that repeats one is named
            if (t.trials.stream().anyMatch(x -> x.getTrial() == trial)) {
                throw c.error("trial " + trial + " of task '" + task + "' appears twice");
            }
            t.trials.add(RobotTrial.newBuilder().setTrial(trial).setSuccess(success).build());
        }
        List<EvalAdapter.Group> out = new ArrayList<>(tasks.size());
        for (TaskTrials t : tasks.values()) {
            out.add(new EvalAdapter.Group(t.task, new EvalSample(
                    EvalSample.event(t.suite, "robot", GenerationInputs.newBuilder().setTrials(t.trials).build()),
                    EvalSample.item(t.suite, MagmaTruth.trials(t.protocolTrials).into(GroundTruth.newBuilder()).build())),
                    t.first.line()));
        }
        return out;
    }
}
