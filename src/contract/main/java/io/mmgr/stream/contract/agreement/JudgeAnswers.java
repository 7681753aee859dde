package io.mmgr.stream.contract.agreement;

import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.PanelAnswer;
import io.mmgr.stream.contract.VerdictStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each judge's own answer in a panel verdict: per metric, the majority of that judge's valid samples. The
 * panel's agreement meters and the stream's inter-judge agreement both read a verdict through this, so the
 * two count the same thing.
 */
public final class JudgeAnswers {

    private JudgeAnswers() {
    }

    /**
     * By judge (in the order the verdict lists them), by metric of the verdict, that judge's answer; a metric
     * a judge gave no valid value for maps to null. Empty for a verdict without panel answers.
     */
    public static Map<String, Map<String, Double>> of(JudgeVerdict v) {
        Map<String, List<PanelAnswer>> byJudge = new LinkedHashMap<>();
        for (PanelAnswer a : v.getPanelAnswers()) {
            byJudge.computeIfAbsent(a.getJudge(), k -> new ArrayList<>()).add(a);
        }
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        byJudge.forEach((judge, answers) -> {
            Map<String, Double> metrics = new LinkedHashMap<>();
            for (String metric : v.getMetrics().keySet()) {
                metrics.put(metric, Votes.majority(answers.stream().filter(a -> VerdictStatus.VALID.is(a.getStatus()))
                        .map(a -> a.getMetrics().get(metric)).toList()));
            }
            out.put(judge, metrics);
        });
        return out;
    }
}
