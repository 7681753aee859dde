package io.mmgr.stream.contract;

/**
 * The scorer's answer to a checkpoint's done marker ({@code CheckpointStatus.status}).
 * The Avro field stays a string (its released schemas are strings); this is the set of its values.
 */
public enum CheckpointState implements StatusValue {
    /** every expected sample is scored and the parts agree */
    COMPLETE,
    /** the marker's deadline passed first; rewritten to COMPLETE if the rest arrives later */
    TIMED_OUT;
}
