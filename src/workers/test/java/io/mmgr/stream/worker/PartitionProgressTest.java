package io.mmgr.stream.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class PartitionProgressTest {

    static final TopicPartition TP = new TopicPartition("t", 0);

    @Test
    void theCommittedOffsetIsTheLowestUnfinishedRecordAndWhatFinishedAboveItIsInTheMetadata() {
        PartitionProgress p = new PartitionProgress(TP, 100, null);
        assertThat(p.committable()).as("nothing fetched yet").isEqualTo(-1);
        assertThat(p.needsCommit()).isFalse();
        for (long o = 100; o < 110; o++) {
            assertThat(p.fetched(o)).isTrue();
        }
        assertThat(p.committable()).isEqualTo(100);
        // 100 is slow; everything else finishes, out of order
        for (long o : new long[] {105, 101, 109, 102, 103}) {
            p.finished(o);
        }
        assertThat(p.committable()).isEqualTo(100);
        assertThat(p.metadata()).isEqualTo("v1 1-3,5-5,9-9");
        assertThat(p.needsCommit()).as("the metadata says more than what was committed").isTrue();
        p.committed(p.committable(), p.metadata());
        assertThat(p.needsCommit()).isFalse();

        p.finished(100);
        assertThat(p.committable()).isEqualTo(104);
        assertThat(p.metadata()).isEqualTo("v1 1-1,5-5");
        for (long o : new long[] {104, 106, 107, 108}) {
            p.finished(o);
        }
        assertThat(p.committable()).as("all fetched records finished").isEqualTo(110);
        assertThat(p.metadata()).isEmpty();
    }

    @Test
    void aNewOwnerSkipsWhatTheOldOneFinishedAndCarriesItOverUntilFetched() {
        PartitionProgress old = new PartitionProgress(TP, 0, null);
        for (long o = 0; o < 8; o++) {
            old.fetched(o);
        }
        for (long o : new long[] {1, 2, 3, 6}) {
            old.finished(o);
        }
        String meta = old.metadata();
        assertThat(meta).isEqualTo("v1 1-3,6-6");

        PartitionProgress next = new PartitionProgress(TP, old.committable(), meta);
        List<Long> worked = new ArrayList<>();
        for (long o = 0; o < 4; o++) {
            if (next.fetched(o)) {
                worked.add(o);
            }
        }
        assertThat(worked).containsExactly(0L);
        // only 0..3 fetched so far: what is known about 6 must survive a commit now
        assertThat(next.metadata()).isEqualTo("v1 1-3,6-6");
        next.finished(0);
        assertThat(next.committable()).isEqualTo(4);
        assertThat(next.metadata()).isEqualTo("v1 2-2");
        for (long o = 4; o < 8; o++) {
            if (next.fetched(o)) {
                worked.add(o);
            }
        }
        assertThat(worked).containsExactly(0L, 4L, 5L, 7L);
    }

    @Test
    void theCommittedOffsetMovesOverTheOldOwnersFinishedRunsOnceNothingIsOpen() {
        PartitionProgress next = new PartitionProgress(TP, 10, "v1 1-5,6-9");
        assertThat(next.fetched(10)).isTrue();
        next.finished(10);
        // 11..19 were finished before: the commit can name 20 even before they are fetched again
        assertThat(next.committable()).isEqualTo(20);
        assertThat(next.metadata()).isEmpty();
        assertThat(next.fetched(11)).isFalse();
        assertThat(next.fetched(19)).isFalse();
        assertThat(next.fetched(20)).isTrue();
    }

    @Test
    void metadataThatIsNotOursOrIsMalformedSkipsNothing() {
        for (String foreign : new String[] {"", "hello", "v1 ", "v1 0-3", "v1 3-1", "v1 1-2,2-4", "v1 a-b", "v2 1-3"}) {
            PartitionProgress p = new PartitionProgress(TP, 50, foreign);
            assertThat(p.fetched(51)).as("metadata '%s'", foreign).isTrue();
        }
    }

    @Test
    void theMetadataStaysWithinItsLimitAndLeavesOutWhatDoesNotFit() {
        PartitionProgress p = new PartitionProgress(TP, 0, null);
        for (long o = 0; o < 4000; o++) {
            p.fetched(o);
        }
        for (long o = 1; o < 4000; o += 2) {
            p.finished(o); // every other one: 2,000 separate ranges
        }
        String meta = p.metadata();
        assertThat(meta.length()).isLessThanOrEqualTo(PartitionProgress.MAX_METADATA);
        assertThat(meta).startsWith("v1 1-1,3-3,5-5");
        // a new owner skips what the metadata kept, and does the rest again: nothing is lost
        PartitionProgress next = new PartitionProgress(TP, 0, meta);
        int worked = 0;
        for (long o = 0; o < 4000; o++) {
            if (next.fetched(o)) {
                worked++;
            }
        }
        assertThat(worked).isGreaterThan(2000).isLessThan(4000);
        assertThat(next.fetched(3999)).as("beyond what fitted: done again").isTrue();
    }
}
