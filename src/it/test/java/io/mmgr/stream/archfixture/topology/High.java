package io.mmgr.stream.archfixture.topology;

import io.mmgr.stream.archfixture.contract.Low;

/** A stream class importing the contract (allowed), which imports it back (a cycle). */
public final class High {

    public static final String NAME = "high";

    public int down() {
        return Low.size();
    }
}
