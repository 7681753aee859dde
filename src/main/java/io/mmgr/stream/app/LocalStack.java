package io.mmgr.stream.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;

/**
 * A Kafka broker and schema registry started in this process, for {@code run} without
 * {@code --bootstrap-servers}. Found through {@link ServiceLoader}: the lab's embedded stack provides one, the
 * deployable artifact (which carries no broker) none, and then {@code run} needs {@code --bootstrap-servers}.
 */
public interface LocalStack {

    /**
     * Starts the broker in the background and the registry, and returns once their addresses are known.
     *
     * @param brokerPort   client port wanted on first start (0: any free port)
     * @param registryPort registry port wanted (0: any free port)
     * @param timeline     where the registry's and the broker's readiness are recorded
     */
    Starting start(Path dataDir, int brokerPort, int registryPort, StartupTimeline timeline);

    /**
     * A stack being started: where it listens, when the broker is up, and what runs beside a scorer on it.
     */
    record Starting(String bootstrapServers, String registryUrl, CompletableFuture<? extends Running> ready,
                    ClusterCompanion companion) {
    }

    /** A started stack. */
    interface Running extends AutoCloseable {

        /** How long the broker took to start. */
        Duration brokerStartTime();

        @Override
        void close();
    }

    /** The stack the class path provides, if any (the first one found). */
    static Optional<LocalStack> find(ClassLoader loader) {
        return ServiceLoader.load(LocalStack.class, loader).findFirst();
    }
}
