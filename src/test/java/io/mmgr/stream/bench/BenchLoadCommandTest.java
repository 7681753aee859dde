package io.mmgr.stream.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code mmgr bench load} refuses a scorer setting given with -P, which sets only the load generator's clients
 * (a run measuring commit.interval.ms=50 that way measured the default against itself).
 */
@Tag("unit")
class BenchLoadCommandTest {

    @Test
    void aScorerSettingGivenAsAClientPropertyIsRefusedBeforeAnythingStarts() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));

        int code = cl.execute("bench", "load", "--workload", "light", "--samples", "10",
                "-P", "linger.ms=5", "-P", "commit.interval.ms=50", "-P", "num.stream.threads=3");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("-P commit.interval.ms, num.stream.threads: not a Kafka client property")
                .contains("--scorer-property KEY=VALUE")
                .doesNotContain("linger.ms");
        assertThat(out.toString()).doesNotContain("raw broker");
    }

    @Test
    void clientAndRegistryPropertiesPass() {
        assertThat(BenchLoadCommand.notClientProperties(List.of("linger.ms", "security.protocol", "isolation.level",
                "request.timeout.ms", "mmgr.schema-registry.basic.auth.user.info", "commit.interval.ms",
                "processing.guarantee"))).containsExactly("commit.interval.ms", "processing.guarantee");
    }
}
