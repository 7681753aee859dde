package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that serve HTTP refuse, before anything starts, to serve it beyond loopback without an
 * access token, and their error names the option; a token too short to resist guessing is refused the
 * same way, and never echoed.
 */
@Tag("unit")
class WebAccessOptionsTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void noTokenInTheEnvironment() {
        assumeTrue(System.getenv("MMGR_WEB_TOKEN") == null, "MMGR_WEB_TOKEN is set in this environment");
    }

    /** A cluster that is not there: the command must stop before it would try it. */
    List<String> run(String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "http://127.0.0.1:1", "--data-dir", dir.toString()));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void runBoundBeyondLoopbackWithoutATokenRefusesToStartAndNamesTheOption() throws Exception {
        CliRun r = CliRun.of(run("--web-bind", "0.0.0.0", "--web-port", "0").toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--web-token", "MMGR_WEB_TOKEN", "--web-auth none", "0.0.0.0");
        assertThat(r.out()).doesNotContain("Starting the scorer");
        assertThat(Files.exists(dir.resolve("scorer.state"))).as("nothing started").isFalse();
    }

    @Test
    void aShortTokenIsRefusedWithoutBeingEchoed() {
        CliRun r = CliRun.of(run("--web-bind", "0.0.0.0", "--web-port", "0", "--web-token", "hunter2").toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("at least 16 characters").doesNotContain("hunter2");
        CliRun demo = CliRun.of("demo", "--web-token", "hunter2", "--data-dir", dir.toString(), "--no-open");
        assertThat(demo.exit()).isEqualTo(2);
        assertThat(demo.err()).contains("--web-token").doesNotContain("hunter2");
    }

    @Test
    void noneSaidExplicitlyAndATokenContradictEachOther() {
        CliRun r = CliRun.of(run("--web-bind", "0.0.0.0", "--web-port", "0", "--web-auth", "none", "--web-token",
                "0123456789abcdef0123").toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("contradict").doesNotContain("0123456789abcdef0123");
    }

    @Test
    void theJudgeWorkersMetricsBeyondLoopbackNeedTheTokenToo() {
        CliRun r = CliRun.of("judge-worker", "--judge-protocol", "openai", "--judge-base-url", "http://127.0.0.1:1/v1",
                "--judge-model", "m", "--metrics-port", "0", "--metrics-bind", "0.0.0.0", "--bootstrap-servers", "127.0.0.1:1",
                "--schema-registry-url", "http://127.0.0.1:1", "--data-dir", dir.toString());
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--web-token", "--web-auth none");
    }

    @Test
    void theHelpOfEveryCommandServingHttpTellsTheOptions() {
        for (String command : List.of("run", "demo", "judge-worker")) {
            String help = CliRun.stdout(command, "--help");
            assertThat(help).as(command).contains("--web-token", "MMGR_WEB_TOKEN", "--web-auth", "MMGR_WEB_AUTH");
        }
        assertThat(CliRun.stdout("bench", "load", "--help")).contains("--web-token", "MMGR_WEB_TOKEN");
    }
}
