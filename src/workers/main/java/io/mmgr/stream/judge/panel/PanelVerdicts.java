package io.mmgr.stream.judge.panel;

import io.mmgr.stream.contract.agreement.Votes;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.PanelAnswer;
import io.mmgr.stream.contract.VerdictStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A panel's verdict from its judges' answers: each judge's samples reduced by majority, its self-agreement
 * per metric (the share of its usable samples equal to that majority), then the judges' values by the
 * panel's rule. A judge's unusable samples are left out of its vote and kept in {@code panelAnswers}; a
 * judge with no usable sample makes the verdict INVALID, naming it, since the rule cannot be applied
 * without it.
 */
final class PanelVerdicts {

    private PanelVerdicts() {
    }

    /** One judge's reduced answer: its majority per metric and its self-agreement per metric. */
    record JudgeAnswer(Map<String, Double> metrics, Map<String, Double> selfAgreement) {
    }

    static JudgeAnswer reduce(JudgeVerdict[] samples) {
        TreeSet<String> names = new TreeSet<>();
        List<JudgeVerdict> usable = new ArrayList<>();
        for (JudgeVerdict v : samples) {
            if (VerdictStatus.VALID.is(v.getStatus())) {
                usable.add(v);
                names.addAll(v.getMetrics().keySet());
            }
        }
        Map<String, Double> majority = new HashMap<>();
        Map<String, Double> self = new HashMap<>();
        for (String metric : names) {
            List<Double> values = usable.stream().map(v -> v.getMetrics().get(metric)).toList();
            Double decided = Votes.majority(values);
            majority.put(metric, decided);
            Double share = Votes.agreement(values, decided);
            if (share != null) {
                self.put(metric, share);
            }
        }
        return usable.isEmpty() ? null : new JudgeAnswer(majority, self);
    }

    static JudgeVerdict combine(JudgeRequest request, String key, List<String> judges, JudgeVerdict[][] answers, int samples,
                                PanelRule rule) {
        JudgeVerdict first = answers[0][0];
        List<PanelAnswer> recorded = new ArrayList<>();
        long latency = 0;
        int attempts = 0;
        long in = 0;
        long out = 0;
        double cost = 0.0;
        for (int m = 0; m < answers.length; m++) {
            for (int s = 0; s < answers[m].length; s++) {
                JudgeVerdict v = answers[m][s];
                recorded.add(PanelAnswer.newBuilder().setJudge(judges.get(m)).setSample(samples == 1 ? 0 : s + 1)
                        .setStatus(v.getStatus()).setMetrics(new HashMap<>(v.getMetrics())).setReason(v.getReason()).build());
                latency += v.getLatencyMs();
                attempts += v.getAttempts();
                in += v.getInputTokens();
                out += v.getOutputTokens();
                cost += v.getCostUsd();
            }
        }
        JudgeVerdict.Builder b = JudgeVerdict.newBuilder(first)
                .setRequestId(request.getRequestId())
                .setGenerationId(request.getGenerationId())
                .setJudgeModel(String.join(" + ", judges) + (samples > 1 ? " x" + samples : ""))
                .setLatencyMs(latency).setAttempts(attempts).setInputTokens(in).setOutputTokens(out).setCostUsd(cost)
                .setCacheKey(key).setCachedFrom(null).setRawText(null).setReason(null)
                .setPanelRule(rule.id()).setPanelAnswers(recorded).setDecidedAt(Instant.now());
        List<JudgeAnswer> reduced = new ArrayList<>();
        for (int m = 0; m < answers.length; m++) {
            JudgeAnswer a = reduce(answers[m]);
            if (a == null) {
                JudgeVerdict lastWord = answers[m][answers[m].length - 1];
                return b.setStatus(VerdictStatus.INVALID.name()).setMetrics(new HashMap<>()).setJustifications(new HashMap<>())
                        .setRawText(lastWord.getRawText())
                        .setReason("judge " + judges.get(m) + " gave no usable answer in " + answers[m].length + " sample(s): "
                                + lastWord.getReason())
                        .build();
            }
            reduced.add(a);
        }
        TreeSet<String> names = new TreeSet<>();
        reduced.forEach(a -> names.addAll(a.metrics().keySet()));
        Map<String, Double> metrics = new HashMap<>();
        Map<String, Double> self = new HashMap<>();
        for (String metric : names) {
            metrics.put(metric, rule.apply(reduced.stream().map(a -> a.metrics().get(metric)).toList()));
            if (samples > 1) {
                reduced.stream().map(a -> a.selfAgreement().get(metric)).filter(java.util.Objects::nonNull)
                        .mapToDouble(Double::doubleValue).average().ifPresent(mean -> self.put(metric, mean));
            }
        }
        return b.setStatus(VerdictStatus.VALID.name()).setMetrics(metrics).setJustifications(justifications(answers, metrics))
                .setSelfAgreement(self).build();
    }

    /** Per metric, the justification of the first usable answer that gave the verdict's value. */
    private static Map<String, String> justifications(JudgeVerdict[][] answers, Map<String, Double> metrics) {
        Map<String, String> out = new HashMap<>();
        metrics.forEach((metric, value) -> {
            for (JudgeVerdict[] bySample : answers) {
                for (JudgeVerdict v : bySample) {
                    String why = v.getJustifications().get(metric);
                    if (why != null && value != null && value.equals(v.getMetrics().get(metric)) && !out.containsKey(metric)) {
                        out.put(metric, why);
                    }
                }
            }
        });
        return out;
    }

    /** A (judge, sample) got no answer by the deadline: the panel's verdict is FAILED, saying which. */
    static JudgeVerdict failed(JudgeVerdict failed, String where) {
        return JudgeVerdict.newBuilder(failed).setReason(where + ": " + failed.getReason()).build();
    }
}
