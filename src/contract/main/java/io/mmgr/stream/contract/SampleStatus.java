package io.mmgr.stream.contract;

/**
 * The status of a sample's score ({@code SampleScore.status}, {@code SampleOutcome.status}).
 * The Avro field stays a string (its released schemas are strings); this is the set of its values.
 */
public enum SampleStatus implements StatusValue {
    /** every planned part arrived and was usable */
    COMPLETE,
    /** scored, with parts that cannot arrive (unavailable) */
    PARTIAL,
    /** a part is still coming */
    PENDING,
    /** a part failed: the sample scores 0 with the reason */
    FAILED;
}
