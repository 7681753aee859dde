package io.mmgr.stream.tasks;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A published figure of how often a rater agrees with human raters on a task, by the model whose
 * outputs were rated (the MMGR paper's Table 5, as the seed gives it).
 *
 * @param task    the task id
 * @param rater   {@link #JUDGE} or the deterministic part compared with humans (e.g. {@code pixel})
 * @param byModel agreement in [0, 1] by model name as the paper writes it
 */
public record AgreementPrior(String task, String rater, Map<String, Double> byModel) {

    /** The VLM judge as a rater. */
    public static final String JUDGE = "judge";

    public AgreementPrior {
        byModel = Collections.unmodifiableMap(new TreeMap<>(byModel)); // by name: a stable "lowest listed" on ties
    }
}
