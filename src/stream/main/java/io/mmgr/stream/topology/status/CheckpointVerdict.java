package io.mmgr.stream.topology.status;

import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointStatus;
import io.mmgr.stream.avro.CheckpointTaskStatus;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.contract.CheckpointState;
import io.mmgr.stream.contract.SampleKeys;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Where a checkpoint stands, from what the scorer already published about it: its leaderboard rows
 * (counts, the primary with its interval), its comparisons and its alerts. Nothing is recomputed here;
 * this only counts expected against scored samples and checks that the parts agree with each other.
 *
 * @param complete every expected sample has a final score
 * @param settled  the all-tasks row has caught up with the task rows, and every comparison with its row,
 *                 so the answer does not mix an old comparison with a new row
 */
record CheckpointVerdict(boolean complete, boolean settled, CheckpointTaskStatus overall, List<CheckpointTaskStatus> tasks,
                         List<LeaderboardRow> rows, List<CheckpointComparison> comparisons) {

    static final String FROM_BENCHMARK = "benchmark";
    static final String FROM_MARKER = "marker";

    /**
     * @param done               the job's marker
     * @param rows               the checkpoint's leaderboard rows by task ({@code *} included)
     * @param comparisons        its comparisons by task
     * @param alerts             its alerts
     * @param benchmarkExpected  a task's benchmark items x seeds
     */
    static CheckpointVerdict of(CheckpointDone done, Map<String, LeaderboardRow> rows, Map<String, CheckpointComparison> comparisons,
                                List<Alert> alerts, ToLongFunction<String> benchmarkExpected) {
        TreeSet<String> taskIds = new TreeSet<>(done.getTasks());
        if (taskIds.isEmpty()) {
            taskIds.addAll(rows.keySet());
            taskIds.remove(SampleKeys.ALL_TASKS);
        }
        List<CheckpointTaskStatus> tasks = new ArrayList<>();
        long scored = 0;
        long failed = 0;
        long partial = 0;
        long expectedSum = 0;
        boolean everyTaskDone = true;
        for (String t : taskIds) {
            LeaderboardRow row = rows.get(t);
            long expected = benchmarkExpected.applyAsLong(t);
            CheckpointTaskStatus s = status(t, expected, row, comparisons.get(t), alerts);
            tasks.add(s);
            scored += s.getSamplesScored();
            failed += s.getSamplesFailed();
            partial += s.getSamplesPartial();
            expectedSum += expected;
            everyTaskDone &= s.getSamplesScored() >= expected;
        }
        long expected = done.getExpected() == null ? expectedSum : done.getExpected();
        LeaderboardRow all = rows.get(SampleKeys.ALL_TASKS);
        CheckpointTaskStatus overall = status(SampleKeys.ALL_TASKS, expected, all, comparisons.get(SampleKeys.ALL_TASKS), alerts);
        // the counts are those of the tasks asked about; the primary is the all-tasks row's
        overall.setSamplesScored(scored);
        overall.setSamplesFailed(failed);
        overall.setSamplesPartial(partial);
        overall.setSamplesPending(Math.max(0, expected - scored));
        boolean complete = expected > 0 && scored >= expected && (done.getExpected() != null || everyTaskDone);
        return new CheckpointVerdict(complete, settled(rows, comparisons), overall, tasks, ordered(rows.values(), LeaderboardRow::getTask),
                ordered(comparisons.values(), CheckpointComparison::getTask));
    }

    private static CheckpointTaskStatus status(String task, long expected, LeaderboardRow row, CheckpointComparison c, List<Alert> alerts) {
        long scored = row == null ? 0 : row.getSamplesScored();
        return CheckpointTaskStatus.newBuilder()
                .setTask(task)
                .setSamplesExpected(expected)
                .setSamplesScored(scored)
                .setSamplesPending(Math.max(0, expected - scored))
                .setSamplesFailed(row == null ? 0 : row.getSamplesFailed())
                .setSamplesPartial(row == null ? 0 : row.getSamplesPartial())
                .setPrimaryRate(row == null ? null : row.getPrimaryRate())
                .setPrimaryCiLow(row == null ? null : row.getPrimaryCiLow())
                .setPrimaryCiHigh(row == null ? null : row.getPrimaryCiHigh())
                .setVsPrevious(c == null ? null : c.getVsPrevious())
                .setVsBest(c == null ? null : c.getVsBest())
                .setAlerts(alerts.stream().filter(a -> a.getTask().equals(task))
                        .sorted(Comparator.comparing(Alert::getRaisedAt).thenComparing(Alert::getKind)).toList())
                .build();
    }

    /** The all-tasks row counts every task row's samples, and each comparison counts its row's primaries. */
    private static boolean settled(Map<String, LeaderboardRow> rows, Map<String, CheckpointComparison> comparisons) {
        LeaderboardRow all = rows.get(SampleKeys.ALL_TASKS);
        if (all == null) {
            return false;
        }
        long samples = 0;
        long primaries = 0;
        for (LeaderboardRow r : rows.values()) {
            if (r == all) {
                continue;
            }
            samples += r.getSamplesScored() + r.getSamplesPending();
            primaries += r.getPrimaryCount();
        }
        if (all.getSamplesScored() + all.getSamplesPending() != samples || all.getPrimaryCount() != primaries) {
            return false;
        }
        for (LeaderboardRow r : rows.values()) {
            CheckpointComparison c = comparisons.get(r.getTask());
            if (r.getPrimaryCount() > 0 && (c == null || c.getSamplesWithPrimary() != r.getPrimaryCount())) {
                return false;
            }
        }
        return true;
    }

    /** Task entries by name, the all-tasks one last (as the leaderboard command prints them). */
    private static <T> List<T> ordered(java.util.Collection<T> values, java.util.function.Function<T, String> task) {
        return values.stream().sorted(Comparator.comparing((T v) -> SampleKeys.ALL_TASKS.equals(task.apply(v)))
                .thenComparing(task)).toList();
    }

    CheckpointStatus toStatus(CheckpointState status, CheckpointDone done, Instant deadline, Instant decidedAt, Instant updatedAt) {
        LeaderboardRow all = rows.stream().filter(r -> SampleKeys.ALL_TASKS.equals(r.getTask())).findFirst().orElse(null);
        return CheckpointStatus.newBuilder()
                .setRunId(done.getRunId())
                .setCheckpointId(done.getCheckpointId())
                .setModel(all != null ? all.getModel() : done.getModel())
                .setTrainingStep(all != null ? all.getTrainingStep() : done.getTrainingStep() == null ? 0 : done.getTrainingStep())
                .setStatus(status.name())
                .setDoneId(done.getDoneId())
                .setExpectedFrom(done.getExpected() == null ? FROM_BENCHMARK : FROM_MARKER)
                .setOverall(overall)
                .setTasks(tasks)
                .setRows(rows)
                .setComparisons(comparisons)
                .setDeadline(deadline)
                .setDecidedAt(decidedAt)
                .setUpdatedAt(updatedAt)
                .build();
    }
}
