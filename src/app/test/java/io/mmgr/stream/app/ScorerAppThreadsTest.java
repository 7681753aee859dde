package io.mmgr.stream.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The thread summary a start that never reaches RUNNING reports. */
@Tag("unit")
class ScorerAppThreadsTest {

    record Thread(String threadName, String threadState, Set<TaskMetadata> activeTasks) implements ThreadMetadata {
        @Override public Set<TaskMetadata> standbyTasks() { return Set.of(); }
        @Override public String consumerClientId() { return ""; }
        @Override public String restoreConsumerClientId() { return ""; }
        @Override public Set<String> producerClientIds() { return Set.of(); }
        @Override public String adminClientId() { return ""; }
    }

    static Set<TaskMetadata> tasks(int n) {
        // only their number is read
        return IntStream.range(0, n).mapToObj(i -> (TaskMetadata) java.lang.reflect.Proxy.newProxyInstance(
                TaskMetadata.class.getClassLoader(), new Class<?>[] {TaskMetadata.class}, (p, m, a) -> switch (m.getName()) {
                    case "hashCode" -> i;
                    case "equals" -> p == a[0];
                    default -> null;
                })).collect(Collectors.toSet());
    }

    @Test
    void namesEachThreadItsStateAndItsTasks() {
        String s = ScorerApp.describeThreads(List.of(
                new Thread("mmgr-scorer-1b2c-StreamThread-2", "PARTITIONS_ASSIGNED", tasks(0)),
                new Thread("mmgr-scorer-1b2c-StreamThread-1", "RUNNING", tasks(27))));
        // a rebalance that never completed (no tasks) reads apart from a thread that holds its tasks
        assertThat(s).isEqualTo("StreamThread-1 RUNNING with 27 active tasks, StreamThread-2 PARTITIONS_ASSIGNED with 0 active tasks");
    }
}
