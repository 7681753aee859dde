package io.mmgr.stream.worker;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * Progress of one assigned partition when its records finish out of order: the fetched offsets still
 * open, and the offset to commit, which is the lowest open one (or the next to fetch when none is
 * open), so that nothing unfinished is ever skipped by a restart.
 *
 * <p>Offsets finished above that point are written into the commit's metadata ({@link #metadata()}),
 * so that whoever owns the partition next (this worker after a crash, another after a rebalance) skips
 * them instead of doing them again: a slow record holding the committed offset back costs a replay of
 * itself only. The metadata is committed in the same transaction as the outputs of the offsets it lists,
 * so it never names an offset whose outputs were not written. Kept within {@link #MAX_METADATA}
 * characters (the broker's default limit is 4,096): ranges that do not fit are left out, and those
 * offsets are simply done again.
 *
 * <p>Not thread-safe: only the loop thread touches it, except {@link #revoked}, which jobs read.
 */
public final class PartitionProgress {

    static final int MAX_METADATA = 2000;
    private static final String VERSION = "v1";

    private final TopicPartition partition;
    private final TreeSet<Long> open = new TreeSet<>();
    /** Finished by an earlier owner above its committed offset, as inclusive [from, to] pairs, ascending. */
    private final List<long[]> skip;
    private long next = -1;
    private long committed;
    private String committedMetadata;
    private volatile boolean revoked;

    /**
     * @param committedOffset what the group had committed at assignment (-1: nothing)
     * @param metadata        the metadata committed with it (null or foreign text: nothing to skip)
     */
    public PartitionProgress(TopicPartition partition, long committedOffset, String metadata) {
        this.partition = partition;
        this.committed = committedOffset;
        this.committedMetadata = metadata == null ? "" : metadata;
        this.skip = committedOffset < 0 ? new ArrayList<>() : parse(committedOffset, metadata);
    }

    public TopicPartition partition() {
        return partition;
    }

    /**
     * A record was fetched. False when an earlier owner finished it already (it must not be done again);
     * otherwise it is open until {@link #finished}.
     */
    public boolean fetched(long offset) {
        next = Math.max(next, offset + 1);
        if (skipped(offset)) {
            return false;
        }
        open.add(offset);
        return true;
    }

    public void finished(long offset) {
        open.remove(offset);
    }

    /** Reopens an offset whose completion was not written after all (an aborted transaction). */
    public void reopen(long offset) {
        open.add(offset);
    }

    public int openCount() {
        return open.size();
    }

    /**
     * The offset to commit: the lowest open one, else the next to fetch (past what an earlier owner
     * finished there); -1 before anything was fetched.
     */
    public long committable() {
        if (next < 0) {
            return -1;
        }
        if (!open.isEmpty()) {
            return open.first();
        }
        long c = next;
        for (long[] r : skip) { // ascending: a run of adjacent ranges is crossed in one pass
            if (r[0] <= c && c <= r[1]) {
                c = r[1] + 1;
            }
        }
        return c;
    }

    /** Whether a commit now would move the offset or change what it says is finished above it. */
    public boolean needsCommit() {
        long c = committable();
        return c >= 0 && (c != committed || !metadata().equals(committedMetadata));
    }

    /** Records what a successful commit wrote. */
    public void committed(long offset, String metadata) {
        this.committed = offset;
        this.committedMetadata = metadata;
    }

    /** The partition was taken away: its jobs' work would be thrown away, so they may stop. */
    public boolean revoked() {
        return revoked;
    }

    void revoke() {
        revoked = true;
    }

    /**
     * The finished offsets above {@link #committable()}: those between it and the next to fetch that are
     * not open, and the earlier owner's that were not fetched yet. Relative ranges, e.g. {@code v1 1-40,42-42}.
     */
    public String metadata() {
        long base = committable();
        if (base < 0) {
            return "";
        }
        List<long[]> done = new ArrayList<>();
        long from = base;
        for (long o : open) {
            if (o > from) {
                done.add(new long[] {from, o - 1});
            }
            from = o + 1;
        }
        if (next > from) {
            done.add(new long[] {from, next - 1});
        }
        for (long[] r : skip) {
            long lo = Math.max(r[0], Math.max(next, base));
            if (lo <= r[1]) {
                done.add(new long[] {lo, r[1]});
            }
        }
        if (done.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(VERSION);
        char sep = ' ';
        for (long[] r : done) {
            String range = (r[0] - base) + "-" + (r[1] - base);
            if (sb.length() + 1 + range.length() > MAX_METADATA) {
                break;
            }
            sb.append(sep).append(range);
            sep = ',';
        }
        return sb.length() == VERSION.length() ? "" : sb.toString();
    }

    private boolean skipped(long offset) {
        for (long[] r : skip) {
            if (offset < r[0]) {
                return false;
            }
            if (offset <= r[1]) {
                return true;
            }
        }
        return false;
    }

    /** Ranges in the committed metadata, made absolute; anything unreadable means nothing is skipped. */
    static List<long[]> parse(long base, String metadata) {
        List<long[]> out = new ArrayList<>();
        if (metadata == null || !metadata.startsWith(VERSION + " ")) {
            return out;
        }
        long last = 0;
        try {
            for (String part : metadata.substring(VERSION.length() + 1).split(",")) {
                int dash = part.indexOf('-');
                long lo = Long.parseLong(part.substring(0, dash));
                long hi = Long.parseLong(part.substring(dash + 1));
                if (lo < 1 || hi < lo || lo <= last) {
                    return new ArrayList<>(); // the committed offset itself is never finished; ranges ascend
                }
                out.add(new long[] {base + lo, base + hi});
                last = hi;
            }
        } catch (RuntimeException e) {
            return new ArrayList<>();
        }
        return out;
    }
}
