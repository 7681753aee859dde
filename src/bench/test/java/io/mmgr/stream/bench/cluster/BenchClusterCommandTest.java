package io.mmgr.stream.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The cluster command refuses a transaction version Kafka has not, before it starts anything. */
@Tag("unit")
class BenchClusterCommandTest {

    @Test
    void anUnknownTransactionVersionIsRefusedWithTheOptionNamed() {
        for (String bad : new String[] {"3", "-1"}) {
            StringWriter err = new StringWriter();
            StringWriter out = new StringWriter();
            int rc = new CommandLine(new BenchClusterCommand()).setErr(new PrintWriter(err)).setOut(new PrintWriter(out))
                    .execute("--transaction-version", bad, "--dir", "target/never-made-" + bad);
            assertThat(rc).as("exit code for %s", bad).isEqualTo(CommandLine.ExitCode.USAGE);
            assertThat(err.toString()).contains("--transaction-version is " + bad).contains("1 or 2");
            assertThat(out.toString()).as("nothing started").doesNotContain("cluster run in");
            assertThat(java.nio.file.Path.of("target/never-made-" + bad)).doesNotExist();
        }
    }
}
