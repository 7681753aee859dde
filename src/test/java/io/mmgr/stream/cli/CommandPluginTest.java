package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.LocalStack;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The lab's commands and {@code run}'s local stack come from the class path ({@link CommandPlugin},
 * {@link LocalStack}), not from the app's code: with them the full build has {@code demo} and the benches; a
 * class path that provides none (as the deployable artifact, which carries no lab) has only the app's
 * commands, and {@code run} without {@code --bootstrap-servers} is refused before anything starts.
 */
@Tag("unit")
class CommandPluginTest {

    @TempDir
    Path dir;

    /** The test's class path with every io.mmgr service registration hidden: what a build without the lab finds. */
    static final ClassLoader WITHOUT_SERVICES = new ClassLoader(CommandPluginTest.class.getClassLoader()) {
        @Override
        public Enumeration<URL> getResources(String name) throws IOException {
            return name.startsWith("META-INF/services/io.mmgr.stream.") ? Collections.emptyEnumeration() : super.getResources(name);
        }
    };

    @Test
    void theFullBuildFindsTheDemoTheBenchesAndTheEmbeddedStack() {
        CommandLine cl = Main.commandLine();
        assertThat(cl.getSubcommands().keySet()).containsExactly("run", "publish", "label", "leaderboard", "report", "eval",
                "bench", "judge-worker", "demo", "help");
        assertThat(cl.getSubcommands().get("bench").getSubcommands().keySet()).contains("generate", "load", "judge", "restart");
        assertThat(cl.getSubcommands().get("demo").getCommand().getClass().getName()).isEqualTo("io.mmgr.stream.demo.DemoCommand");
        assertThat(LocalStack.find(Main.class.getClassLoader())).get().extracting(s -> s.getClass().getName())
                .isEqualTo("io.mmgr.stream.demo.EmbeddedLocalStack");
    }

    @Test
    void withoutTheLabThereIsNoDemoNoBenchBeyondGenerateAndRunAsksForACluster() throws Exception {
        CommandLine cl = Main.commandLine(WITHOUT_SERVICES);
        assertThat(cl.getSubcommands()).doesNotContainKey("demo").containsKeys("run", "publish", "eval", "help");
        assertThat(cl.getSubcommands().get("bench").getSubcommands().keySet()).containsExactly("generate");
        assertThat(LocalStack.find(WITHOUT_SERVICES)).isEmpty();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        Path data = dir.resolve("data");
        int code = cl.execute("run", "--data-dir", data.toString(), "--no-web");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("this build carries no embedded Kafka broker",
                "give your cluster with --bootstrap-servers (and --schema-registry-url)");
        assertThat(out.toString()).doesNotContain("Starting");
        assertThat(Files.exists(data)).as("nothing started, nothing written").isFalse();
    }
}
