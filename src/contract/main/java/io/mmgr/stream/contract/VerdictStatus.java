package io.mmgr.stream.contract;

/**
 * The status of a judge verdict ({@code JudgeVerdict.status}).
 * The Avro field stays a string (its released schemas are strings); this is the set of its values.
 */
public enum VerdictStatus implements StatusValue {
    /** a usable answer: final, cached */
    VALID,
    /** an answer still unusable after the repair round: final, cached */
    INVALID,
    /** no answer yet (quota, circuit, cache loading): the request is held */
    PENDING,
    /** no answer by the request's deadline: final for the sample, never cached */
    FAILED;
}
