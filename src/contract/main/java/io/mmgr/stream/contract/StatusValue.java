package io.mmgr.stream.contract;

/** A status enum whose values travel in records as their names. */
public interface StatusValue {

    String name();

    /** Whether {@code status}, as a record carries it, is this value. */
    default boolean is(CharSequence status) {
        return status != null && name().contentEquals(status);
    }
}
