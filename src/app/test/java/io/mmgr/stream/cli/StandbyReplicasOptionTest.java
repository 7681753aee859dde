package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code run --standby-replicas}: Kafka's default unless asked, -P agreeing or refused. */
@Tag("unit")
class StandbyReplicasOptionTest {

    @Test
    void unsetLeavesKafkasDefaultOrTheKafkaProperty() {
        assertThat(RunCommand.standbyReplicas(null, Map.of())).isNull();
        // -P num.standby.replicas reaches Kafka Streams with the other overrides: nothing on top of it
        assertThat(RunCommand.standbyReplicas(null, Map.of("num.standby.replicas", "1"))).isNull();
    }

    @Test
    void theOptionIsPassedAndMayAgreeWithAKafkaProperty() {
        assertThat(RunCommand.standbyReplicas(0, Map.of())).isZero();
        assertThat(RunCommand.standbyReplicas(2, Map.of())).isEqualTo(2);
        assertThat(RunCommand.standbyReplicas(2, Map.of("num.standby.replicas", " 2"))).isEqualTo(2);
    }

    @Test
    void aNegativeCountOrAContradictingPropertyIsRefusedByName() {
        assertThatThrownBy(() -> RunCommand.standbyReplicas(-1, Map.of())).hasMessageContaining("0 or more");
        assertThatThrownBy(() -> RunCommand.standbyReplicas(1, Map.of("num.standby.replicas", "0")))
                .hasMessageContaining("contradicts -P num.standby.replicas=0");
    }

    @Test
    void theFlagIsParsed() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--standby-replicas", "2");
        assertThat(run.standbyReplicas).isEqualTo(2);
        RunCommand unset = new RunCommand();
        new CommandLine(unset).parseArgs();
        // unset unless MMGR_STANDBY_REPLICAS is (the tests' environment does not set it)
        assertThat(unset.standbyReplicas).isEqualTo(System.getenv("MMGR_STANDBY_REPLICAS") == null ? null
                : Integer.valueOf(System.getenv("MMGR_STANDBY_REPLICAS")));
    }
}
