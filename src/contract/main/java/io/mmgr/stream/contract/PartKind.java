package io.mmgr.stream.contract;

/**
 * The kind of a sample's part ({@code PartResult.kind}): who scored it. The Avro field stays a string
 * (its released schemas are strings, see schemas/README.md); this is the set of its values, each with
 * the string it travels as.
 */
public enum PartKind {
    /** a deterministic evaluator; released records carry it as "cv" */
    DETERMINISTIC("cv"),
    /** the VLM judge */
    JUDGE("judge"),
    /** a human annotator's label */
    HUMAN("human");

    /**
     * The part name of a human label is this prefix and the annotator's id ({@code human:<annotator>}): assembly
     * keeps labels under it, intake counts a sample's annotators by it, agreement pools them by it.
     */
    public static final String HUMAN_PART_PREFIX = "human:";

    /**
     * One judge of a panel, {@code judge:<protocol/model>}: only in a sample's panel metrics, never a gated part,
     * so the inter-judge agreement can pair the judges.
     */
    public static final String PANEL_JUDGE_PREFIX = "judge:";

    private final String wire;

    PartKind(String wire) {
        this.wire = wire;
    }

    /** The string a record carries. */
    public String wire() {
        return wire;
    }
}
