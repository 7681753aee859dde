package io.mmgr.stream.archfixture.contract;

import io.mmgr.stream.archfixture.topology.High;

/** A contract class that imports the stream above it: the breach ArchitectureTest must catch. */
public final class Low {

    public static String up() {
        return High.NAME;
    }

    public static int size() {
        return new High().hashCode();
    }
}
