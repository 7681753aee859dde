package io.mmgr.stream.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TransactionAbortedException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class RefusalsTest {

    @Test
    void theRecordAnExceptionIsFirstDeliveredToIsRefusedAndTheBatchesFailedWithItAfterwardsAreNot() {
        Refusals<String> r = new Refusals<>();
        RecordTooLargeException big = new RecordTooLargeException("2 MiB is over max.request.size");
        r.delivered("out-1", big);          // the refused record, at send time
        r.delivered("out-0", big);          // waiting in the producer: aborted with the same exception
        r.delivered("out-2", big);
        r.delivered("out-3", new TransactionAbortedException());
        r.delivered("out-4", null);         // written
        assertThat(r.of("out-1")).isSameAs(big);
        assertThat(r.of("out-0")).isNull();
        assertThat(r.of("out-2")).isNull();
        assertThat(r.of("out-3")).as("not a record error").isNull();
        assertThat(r.of("out-4")).isNull();
    }

    @Test
    void twoRecordsRefusedEachForItselfAreBothRefused() {
        Refusals<String> r = new Refusals<>();
        RecordTooLargeException a = new RecordTooLargeException("a");
        RecordTooLargeException b = new RecordTooLargeException("b");
        r.delivered("x", a);
        r.delivered("y", b);
        r.delivered("x", b);
        assertThat(r.of("x")).isSameAs(a);
        assertThat(r.of("y")).isSameAs(b);
    }
}
