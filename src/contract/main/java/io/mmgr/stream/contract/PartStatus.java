package io.mmgr.stream.contract;

/**
 * The status of one part of a sample ({@code PartResult.status}).
 * The Avro field stays a string (its released schemas are strings); this is the set of its values.
 */
public enum PartStatus implements StatusValue {
    /** usable metrics */
    OK,
    /** the evaluator or the judge failed on it */
    ERROR,
    /** the judge answered, unusably */
    INVALID,
    /** the judge holds it (quota, circuit, loading cache), or an evaluation waits for an artifact's store */
    PENDING;
}
