package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.contract.agreement.JudgeAnswers;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.contract.PartKind;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.contract.PartStatus;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.tasks.PartEvaluation;
import io.mmgr.stream.tasks.TaskSpec;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Turns deterministic results, judge verdicts and human labels into the parts assembly keeps. */
public final class Parts {

    private Parts() {
    }

    public static PartResult of(DeterministicResult r) {
        return PartEvaluation.part(r);
    }

    /**
     * Verdict status VALID, INVALID, PENDING or FAILED (see JudgeVerdict.avsc): PENDING keeps the sample
     * waiting with the judge's reason; INVALID (an unusable answer) and FAILED (no answer by the deadline)
     * fail it with the reason.
     */
    public static PartResult of(JudgeVerdict v) {
        PartStatus status = VerdictStatus.VALID.is(v.getStatus()) ? PartStatus.OK
                : VerdictStatus.PENDING.is(v.getStatus()) ? PartStatus.PENDING
                : VerdictStatus.FAILED.is(v.getStatus()) ? PartStatus.ERROR
                : PartStatus.INVALID;
        String error = status == PartStatus.OK ? null
                : v.getReason() != null ? v.getReason() : "judge verdict " + v.getStatus();
        return PartResult.newBuilder()
                .setPart(TaskSpec.JUDGE_PART)
                .setKind(PartKind.JUDGE.wire())
                .setSource(v.getRubric() + "@" + v.getRubricVersion() + " by " + v.getJudgeModel())
                .setGenerationId(v.getGenerationId())
                .setStatus(status.name())
                .setMetrics(new HashMap<>(v.getMetrics()))
                .setDetail(new HashMap<>(v.getJustifications()))
                .setError(error)
                .setArrivedAt(Instant.now())
                .setPanelMetrics(panelMetrics(v))
                .build();
    }

    /** A panel's judges' own answers as {@code judge:<judge>.<metric>}; empty unless two or more judges answered. */
    static Map<String, Double> panelMetrics(JudgeVerdict v) {
        Map<String, Map<String, Double>> byJudge = JudgeAnswers.of(v);
        Map<String, Double> out = new HashMap<>();
        if (byJudge.size() < 2) {
            return out; // one judge's repeated samples are self-agreement, not a pair of raters
        }
        byJudge.forEach((judge, metrics) -> metrics.forEach((metric, value) ->
                out.put(MetricKey.wire(PartKind.PANEL_JUDGE_PREFIX + judge, metric), value)));
        return out;
    }

    public static PartResult of(HumanLabel l) {
        var detail = new HashMap<String, String>();
        if (l.getNote() != null) {
            detail.put("note", l.getNote());
        }
        return PartResult.newBuilder()
                .setPart(PartKind.HUMAN_PART_PREFIX + l.getAnnotator())
                .setKind(PartKind.HUMAN.wire())
                .setSource(l.getAnnotator())
                .setGenerationId(null)
                .setStatus(PartStatus.OK.name())
                .setMetrics(new HashMap<>(l.getMetrics()))
                .setDetail(detail)
                .setArrivedAt(l.getLabeledAt())
                .build();
    }
}
