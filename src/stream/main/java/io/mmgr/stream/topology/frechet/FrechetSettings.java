package io.mmgr.stream.topology.frechet;

import java.time.Duration;

/**
 * Bounds of the live FID / FVD.
 *
 * @param interval      how often changed rows get a new distance (wall clock)
 * @param budget        stream-thread time one round of distances may take; rows left over wait for the next
 * @param maxDims       largest feature dimension accepted (a running statistic holds d^2 doubles)
 * @param cacheBytes    heap for the running statistics of the whole scorer (all partitions); a processor over
 *                      it drops its least recently used rows, rebuilt from the stored vectors when they change again
 * @param maxReferences prepared references kept by the scorer (each d^2 doubles)
 */
public record FrechetSettings(Duration interval, Duration budget, int maxDims, long cacheBytes, int maxReferences) {

    /** 2048 covers Inception's pool3 features (FID); I3D's FVD features are 400. */
    public static final FrechetSettings DEFAULT = new FrechetSettings(Duration.ofSeconds(1), Duration.ofSeconds(2), 2048,
            256L << 20, 4);
}
