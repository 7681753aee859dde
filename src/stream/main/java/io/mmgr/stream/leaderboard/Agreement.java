package io.mmgr.stream.leaderboard;

import io.mmgr.stream.contract.agreement.Kappa;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.contract.PartKind;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.avro.AgreementStat;
import io.mmgr.stream.avro.PairCounts;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.RubricMetric;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Agreement between raters of the same samples: the judge, the deterministic evaluators and human
 * annotators. A sample contributes, per comparison ({@code judge~human}, {@code judge~<evaluator>},
 * {@code <evaluator>~human}), one 2x2 count per fine-grained metric both sides scored, binarized the
 * way the gate reads it (binary metrics as 0/1, fractions at their strict gate endpoint); counts are
 * pooled over the metrics. A judge panel adds one comparison per pair of its judges ({@code judge:<a>~judge:<b>}). Counts add and subtract exactly, so a KTable aggregate keeps them per task x
 * model and a re-scored sample replaces its contribution. Each human annotator's label is its own pair.
 */
public final class Agreement {

    public static final String JUDGE = io.mmgr.stream.tasks.AgreementPrior.JUDGE;
    /** Every {@code human:<annotator>} part, pooled under their kind. */
    public static final String HUMAN = PartKind.HUMAN.wire();
    public static final String RELIABLE = "reliable";
    public static final String DISCOUNT = "discount";
    public static final String UNKNOWN = "unknown";
    /** How the basis of a flag that rests on live pairs begins. */
    public static final String LIVE_BASIS = "live: ";

    /** The comparison of rater {@code a} with rater {@code b}, as the agreement maps key it: {@code a~b}. */
    public static String comparison(String a, String b) {
        return a + "~" + b;
    }

    /** The judge against human annotators. */
    public static final String JUDGE_VS_HUMAN = comparison(JUDGE, HUMAN);

    /**
     * When live figures replace the paper's and what counts as reliable.
     *
     * @param minPairs   paired verdicts needed before live agreement decides the flag
     * @param reliableAt percent agreement (0-1) from which a comparison is flagged reliable; 0.90 sits
     *                   between the seed's "reliable" ARC (94.90 %) and "discount" SLAG (88.45 %)
     * @param priors     the paper's figures the flag rests on until then (the families' Table 5)
     */
    public record Policy(long minPairs, double reliableAt, Table5 priors) {
        /** The default thresholds, without Table 5 figures (the scorer adds the families' with {@link #withPriors}). */
        public static final Policy DEFAULT = new Policy(50, 0.90);

        public Policy {
            java.util.Objects.requireNonNull(priors, "priors");
        }

        /** Thresholds without Table 5 figures. */
        public Policy(long minPairs, double reliableAt) {
            this(minPairs, reliableAt, Table5.NONE);
        }

        /** From {@code mmgr.agreement.min-pairs} and {@code mmgr.agreement.reliable-at} (-P flags), else the defaults. */
        public static Policy of(Map<String, String> settings) {
            long min = Long.parseLong(settings.getOrDefault("mmgr.agreement.min-pairs", Long.toString(DEFAULT.minPairs())));
            double at = Double.parseDouble(settings.getOrDefault("mmgr.agreement.reliable-at", Double.toString(DEFAULT.reliableAt())));
            return new Policy(min, at);
        }

        /** These thresholds with {@code priors}' figures. */
        public Policy withPriors(Table5 priors) {
            return new Policy(minPairs, reliableAt, priors);
        }
    }

    private Agreement() {
    }

    /** What one sample score adds, by comparison. {@code metricTypes}: the task's rubric metrics by name. */
    public static Map<String, PairCounts> ofScore(SampleScore s, Map<String, RubricMetric> metricTypes) {
        Map<String, PairCounts> out = new HashMap<>();
        if (SampleStatus.PENDING.is(s.getStatus())) {
            return out;
        }
        Map<String, Map<String, Double>> byPart = new TreeMap<>();
        s.getMetrics().forEach((key, value) -> {
            if (value != null) {
                MetricKey.tryParse(key).ifPresent(k ->
                        byPart.computeIfAbsent(k.part(), p -> new HashMap<>()).put(k.name(), value));
            }
        });
        for (String a : byPart.keySet()) {
            if (isHuman(a)) {
                continue;
            }
            for (String b : byPart.keySet()) {
                boolean ordered = isHuman(b) || (JUDGE.equals(a) && !JUDGE.equals(b));
                if (a.equals(b) || !ordered) {
                    continue;
                }
                String comparison = comparison(a, isHuman(b) ? HUMAN : b);
                count(byPart.get(a), byPart.get(b), metricTypes, out.computeIfAbsent(comparison, k -> new PairCounts(0L, 0L, 0L, 0L)));
            }
        }
        addPanelPairs(s, metricTypes, out);
        out.values().removeIf(c -> total(c) == 0);
        return out;
    }

    /**
     * A judge panel's inter-judge comparisons, one per pair of judges ({@code judge:<a>~judge:<b>}, names in
     * order), binarized as the human ones are; the judges' own answers come from the score's panel metrics.
     */
    private static void addPanelPairs(SampleScore s, Map<String, RubricMetric> metricTypes, Map<String, PairCounts> out) {
        Map<String, Map<String, Double>> byJudge = new TreeMap<>();
        s.getPanelMetrics().forEach((key, value) -> {
            if (value != null) {
                MetricKey.tryParse(key).filter(k -> k.part().startsWith(PartKind.PANEL_JUDGE_PREFIX)).ifPresent(k ->
                        byJudge.computeIfAbsent(k.part(), p -> new HashMap<>()).put(k.name(), value));
            }
        });
        java.util.List<String> judges = new java.util.ArrayList<>(byJudge.keySet());
        for (int i = 0; i < judges.size(); i++) {
            for (int j = i + 1; j < judges.size(); j++) {
                count(byJudge.get(judges.get(i)), byJudge.get(judges.get(j)), metricTypes,
                        out.computeIfAbsent(comparison(judges.get(i), judges.get(j)), k -> new PairCounts(0L, 0L, 0L, 0L)));
            }
        }
    }

    private static boolean isHuman(String part) {
        return part.startsWith(PartKind.HUMAN_PART_PREFIX);
    }

    private static void count(Map<String, Double> first, Map<String, Double> second, Map<String, RubricMetric> types, PairCounts c) {
        first.forEach((metric, v1) -> {
            Double v2 = second.get(metric);
            if (v2 == null) {
                return;
            }
            Boolean p1 = pass(metric, v1, types);
            Boolean p2 = pass(metric, v2, types);
            if (p1 == null || p2 == null) {
                return;
            }
            if (p1 && p2) {
                c.setBothPass(c.getBothPass() + 1);
            } else if (p1) {
                c.setFirstOnly(c.getFirstOnly() + 1);
            } else if (p2) {
                c.setSecondOnly(c.getSecondOnly() + 1);
            } else {
                c.setBothFail(c.getBothFail() + 1);
            }
        });
    }

    /**
     * A value as the gate reads it: whether it meets the gate's required value (binary metrics must be
     * 0 or 1, fractions are read at their strict endpoint); for a metric that does not gate, 1 counts as
     * pass. Null when the value is no verdict (a non-binary value, a fraction that does not gate).
     */
    static Boolean pass(String metric, double v, Map<String, RubricMetric> types) {
        if (!Double.isFinite(v)) {
            return null; // intake refuses non-finite values; one that got here anyway is no verdict
        }
        RubricMetric m = types.get(metric);
        if (m != null && m.type() == RubricMetric.Type.FRACTION) {
            return m.passValue() == null ? null : v == m.passValue();
        }
        if (v != 0.0 && v != 1.0) {
            return null;
        }
        return m != null && m.passValue() != null ? v == m.passValue() : v == 1.0;
    }

    public static long total(PairCounts c) {
        return c.getBothPass() + c.getFirstOnly() + c.getSecondOnly() + c.getBothFail();
    }

    public static Map<String, PairCounts> add(Map<String, PairCounts> a, Map<String, PairCounts> b, int sign) {
        Map<String, PairCounts> out = new HashMap<>();
        a.forEach((k, v) -> out.put(k, PairCounts.newBuilder(v).build()));
        b.forEach((k, v) -> {
            PairCounts cur = out.getOrDefault(k, new PairCounts(0L, 0L, 0L, 0L));
            PairCounts next = new PairCounts(cur.getBothPass() + sign * v.getBothPass(), cur.getFirstOnly() + sign * v.getFirstOnly(),
                    cur.getSecondOnly() + sign * v.getSecondOnly(), cur.getBothFail() + sign * v.getBothFail());
            if (total(next) == 0) {
                out.remove(k);
            } else {
                out.put(k, next);
            }
        });
        return out;
    }

    /** Share of pairs on which both sides agree, or null without pairs. */
    public static Double percent(PairCounts c) {
        long n = total(c);
        return n == 0 ? null : (c.getBothPass() + c.getBothFail()) / (double) n;
    }

    /** Cohen's kappa (observed minus chance agreement over one minus chance), or null when undefined. */
    public static Double kappa(PairCounts c) {
        double n = total(c);
        if (n == 0) {
            return null;
        }
        double po = (c.getBothPass() + c.getBothFail()) / n;
        double firstPass = (c.getBothPass() + c.getFirstOnly()) / n;
        double secondPass = (c.getBothPass() + c.getSecondOnly()) / n;
        double pe = firstPass * secondPass + (1 - firstPass) * (1 - secondPass);
        return pe >= 1.0 ? null : (po - pe) / (1 - pe);
    }

    /** Kappa's 95 % interval from the 2x2 counts (Cohen's large-sample SE, {@link Kappa}); null when kappa is undefined. */
    public static Kappa.Estimate interval(PairCounts c) {
        Kappa.Cohen cohen = new Kappa.Cohen();
        cohen.add(1, 1, c.getBothPass());
        cohen.add(1, 0, c.getFirstOnly());
        cohen.add(0, 1, c.getSecondOnly());
        cohen.add(0, 0, c.getBothFail());
        Kappa.Estimate e = cohen.estimate();
        return e.defined() ? e : null;
    }

    /**
     * The row's statistics: every live comparison, and every comparison the paper's Table 5 has a
     * figure for; the flag rests on live pairs once there are {@code minPairs} of them, on Table 5
     * before that.
     */
    public static Map<String, AgreementStat> stats(String task, String model, Map<String, PairCounts> counts, Policy policy) {
        Map<String, AgreementStat> out = new TreeMap<>();
        Map<String, Table5.Figure> priors = policy.priors().priors(task, model);
        java.util.Set<String> comparisons = new java.util.TreeSet<>(counts.keySet());
        comparisons.addAll(priors.keySet());
        for (String comparison : comparisons) {
            PairCounts c = counts.getOrDefault(comparison, new PairCounts(0L, 0L, 0L, 0L));
            long n = total(c);
            Double pct = percent(c);
            String flag;
            String basis;
            Table5.Figure prior = priors.get(comparison);
            if (n >= policy.minPairs() && pct != null) {
                flag = pct >= policy.reliableAt() ? RELIABLE : DISCOUNT;
                basis = LIVE_BASIS + n + " paired verdicts";
            } else if (prior != null) {
                flag = prior.agreement() >= policy.reliableAt() ? RELIABLE : DISCOUNT;
                basis = String.format(Locale.ROOT, "MMGR Table 5: %.2f%% (%s) until %d paired verdicts exist (%d so far)",
                        prior.agreement() * 100, prior.source(), policy.minPairs(), n);
            } else {
                flag = UNKNOWN;
                basis = "fewer than " + policy.minPairs() + " paired verdicts (" + n + ") and no Table 5 figure";
            }
            Kappa.Estimate ci = interval(c);
            out.put(comparison, AgreementStat.newBuilder().setPairs(n).setPercentAgreement(pct).setKappa(kappa(c))
                    .setKappaLow(ci == null ? null : ci.low()).setKappaHigh(ci == null ? null : ci.high())
                    .setReliability(flag).setBasis(basis).build());
        }
        return out;
    }

    /** The row's flag: the judge's agreement with humans, where the task has a judge. */
    public static String rowReliability(Map<String, AgreementStat> stats, boolean judged) {
        if (!judged) {
            return null;
        }
        AgreementStat s = stats.get(JUDGE_VS_HUMAN);
        return s == null ? UNKNOWN : s.getReliability();
    }
}
