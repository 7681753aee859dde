package io.mmgr.stream.demo;

import io.mmgr.stream.app.ClusterCompanion;
import io.mmgr.stream.app.LocalStack;
import io.mmgr.stream.app.StartupTimeline;
import io.mmgr.stream.embedded.EmbeddedStack;
import io.mmgr.stream.embedded.HangingTransactions;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The embedded stack as {@code run}'s local stack (registered in META-INF/services), with the sweep a scorer on
 * it runs beside it. The lab's own users of the stack (the demo, {@code bench load}) run the same sweep.
 */
public final class EmbeddedLocalStack implements LocalStack {

    @Override
    public Starting start(Path dataDir, int brokerPort, int registryPort, StartupTimeline timeline) {
        EmbeddedStack.Starting s = EmbeddedStack.startInBackground(dataDir, brokerPort, registryPort, timeline::mark);
        return new Starting(s.bootstrapServers(), s.registryUrl(), s.ready().thenApply(Running::new), sweep());
    }

    /**
     * What a scorer on the embedded broker runs beside it: the sweep that ends the transactions a lone broker
     * restarted after a kill -9 leaves hanging ({@link HangingTransactions}). Only here: a scorer on a cluster
     * it is given runs none, so nothing sends raw protocol frames or reads {@code __transaction_state} there.
     */
    public static ClusterCompanion sweep() {
        return (clientConfig, kafkaOverrides, partitions) -> HangingTransactions.forScorer(clientConfig, kafkaOverrides,
                new HangingTransactions.Scope(partitions.topics(), partitions.groups()));
    }

    private record Running(EmbeddedStack stack) implements LocalStack.Running {
        @Override
        public Duration brokerStartTime() {
            return stack.kafka().startTime();
        }

        @Override
        public void close() {
            stack.close();
        }
    }
}
