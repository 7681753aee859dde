package io.mmgr.stream.judge.panel;

import io.mmgr.stream.contract.agreement.Votes;
import java.util.List;
import java.util.Locale;

/**
 * How a panel's judges' answers to one metric become the verdict's ({@code --judge-panel-rule}).
 * {@link #MAJORITY}: the most frequent value, a tie going to the lowest tied value, so a pass has to win
 * outright (with two judges who differ, the lower); {@link #UNANIMOUS}: the lowest value given, so a
 * binary metric passes only when every judge passes it. A judge's own n samples are always reduced by
 * majority first ({@link Votes#majority}).
 */
public enum PanelRule {
    MAJORITY, UNANIMOUS;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The verdict's value from the judges' values (nulls, metrics a judge did not score, are left out). */
    public Double apply(List<Double> values) {
        return this == MAJORITY ? Votes.majority(values) : Votes.lowest(values);
    }

    public static PanelRule parse(String value) {
        for (PanelRule r : values()) {
            if (r.id().equals(value == null ? "" : value.strip().toLowerCase(Locale.ROOT))) {
                return r;
            }
        }
        throw new IllegalArgumentException("--judge-panel-rule must be majority or unanimous, not '" + value + "'");
    }
}
