package io.mmgr.stream.bench;

import io.mmgr.stream.tasks.magma.Mind2WebEpisodes;

/** The light load: the Magma family's synthetic Mind2Web episodes (tasks/magma keeps the generator, so it needs no bench code). */
public final class MagmaWorkload extends Mind2WebEpisodes implements Workload {

    public MagmaWorkload(int items, int steps, long seed) {
        super(items, steps, seed);
    }

    /** @param idPrefix sample ids are this prefix and the item number */
    public MagmaWorkload(int items, int steps, long seed, String idPrefix) {
        super(items, steps, seed, idPrefix);
    }

    @Override
    public String description() {
        return "light: Mind2Web episodes of " + steps() + " UI steps";
    }
}
