package io.mmgr.stream.topology.judgecost;

import io.mmgr.stream.avro.JudgeSpend;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.JudgeCostKeys;
import io.mmgr.stream.contract.Store;
import io.mmgr.stream.contract.VerdictStatus;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Adds each judge verdict's spend to its run x checkpoint in this partition's store. Under exactly-once the
 * store's change and the verdict's offset commit together, so a verdict counts once. A PENDING notice is no
 * verdict yet and a cache copy ({@code cachedFrom}) made no call: both add nothing, nor does a verdict that made no
 * call (a prompt that could not be built, an unwritable verdict's notice). A panel's verdict carries the sum of its
 * judges' and samples' calls (PanelVerdicts), so it is added as one.
 */
final class JudgeSpendProcessor implements Processor<SampleKey, JudgeVerdict, Void, Void> {

    private final Store<String, JudgeSpend> store;
    private KeyValueStore<String, JudgeSpend> spend;

    JudgeSpendProcessor(Store<String, JudgeSpend> store) {
        this.store = store;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        spend = store.in(context);
    }

    @Override
    public void process(Record<SampleKey, JudgeVerdict> record) {
        JudgeVerdict v = record.value();
        if (record.key() == null || !spends(v)) {
            return;
        }
        String key = JudgeCostKeys.checkpoint(record.key().getRunId(), record.key().getCheckpointId());
        JudgeSpend before = spend.get(key);
        spend.put(key, before == null
                ? new JudgeSpend(1L, (long) v.getAttempts(), v.getInputTokens(), v.getOutputTokens(), v.getCostUsd())
                : new JudgeSpend(before.getVerdicts() + 1, before.getCalls() + v.getAttempts(),
                        before.getInputTokens() + v.getInputTokens(), before.getOutputTokens() + v.getOutputTokens(),
                        before.getCostUsd() + v.getCostUsd()));
    }

    /** A final verdict that made calls of its own. */
    static boolean spends(JudgeVerdict v) {
        return v != null && !VerdictStatus.PENDING.is(v.getStatus()) && v.getCachedFrom() == null
                && (v.getAttempts() > 0 || v.getCostUsd() > 0.0);
    }
}
