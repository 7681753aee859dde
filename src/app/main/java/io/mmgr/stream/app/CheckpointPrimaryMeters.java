package io.mmgr.stream.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.web.StoreQueries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code mmgr.checkpoint.primary{run,checkpoint,task}}: each checkpoint's primary rate as the leaderboard
 * row has it, read from this instance's share of the leaderboard-rows store (the REST API's source), so the
 * instances together export every row once and {@code max by (run, checkpoint, task)} combines them. A
 * partition that moves takes its series along at the next refresh.
 *
 * <p>Cardinality is bounded: only the latest {@link #LATEST} checkpoints (by training step) of each run and
 * task are exported, older series are removed, because a long run's checkpoints would otherwise grow the
 * scrape without end; older checkpoints stay on the leaderboard (REST, topic). The store is scanned off
 * the stream threads, on this class's own thread.
 */
final class CheckpointPrimaryMeters implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointPrimaryMeters.class);

    /** Checkpoints kept per run and task. */
    static final int LATEST = 5;

    private final Supplier<List<LeaderboardRow>> rows;
    private final MultiGauge gauge;
    private final ScheduledExecutorService scheduler;

    CheckpointPrimaryMeters(MeterRegistry registry, StoreQueries queries, Duration refresh) {
        this(registry, () -> queries.rows(null, null, null), refresh);
    }

    CheckpointPrimaryMeters(MeterRegistry registry, Supplier<List<LeaderboardRow>> rows, Duration refresh) {
        this.rows = rows;
        this.gauge = MultiGauge.builder("mmgr.checkpoint.primary")
                .description("Primary rate of a checkpoint on a task ('*': all tasks), as the leaderboard has it; the latest "
                        + LATEST + " checkpoints per run and task, each row on the instance holding its partition")
                .register(registry);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mmgr-checkpoint-meters");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::refresh, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    synchronized void refresh() {
        List<LeaderboardRow> now;
        try {
            now = rows.get();
        } catch (InvalidStateStoreException e) {
            return; // rebalancing: the series stay as they were until the store answers again
        } catch (RuntimeException e) {
            LOG.debug("checkpoint meters not refreshed: {}", e.toString());
            return;
        }
        // overwrite = true: series missing from this refresh (older checkpoints, partitions gone) are removed
        gauge.register(latest(now, LATEST).stream().map(r -> MultiGauge.Row.of(Tags.of("run", r.getRunId(),
                "checkpoint", r.getCheckpointId(), "task", r.getTask()), r.getPrimaryRate())).toList(), true);
    }

    /** The rows with a primary rate of the latest {@code n} checkpoints of each run and task. */
    static List<LeaderboardRow> latest(List<LeaderboardRow> rows, int n) {
        Map<List<String>, List<LeaderboardRow>> byRunTask = rows.stream().filter(r -> r.getPrimaryRate() != null)
                .collect(Collectors.groupingBy(r -> List.of(r.getRunId(), r.getTask())));
        List<LeaderboardRow> out = new ArrayList<>();
        for (List<LeaderboardRow> group : byRunTask.values()) {
            group.stream().sorted(Comparator.comparingLong(LeaderboardRow::getTrainingStep)
                            .thenComparing(LeaderboardRow::getCheckpointId).reversed())
                    .limit(n).forEach(out::add);
        }
        return out;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        gauge.register(List.of(), true);
    }
}
