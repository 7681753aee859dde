package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.cli.ConsoleLogs;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where {@code mmgr run}'s log lines go with the embedded broker (issue 15): two child JVMs as a user starts
 * them, one with {@code --verbose}, side by side. Each is poked once its broker is up with what makes the
 * broker itself log (an HTTP request sent to the Kafka port: the broker warns about the oversized "request"),
 * then stopped with SIGTERM. Quiet: the console has the scorer's start-up lines and only the scorer's own
 * logger lines; the broker's line is in {@code mmgr.log} in the data directory, beside the broker's data
 * rather than inside it. Verbose: the console has the broker's line too.
 */
@Tag("integration")
class ConsoleLogsTest {

    static final String BROKER_READY = "Kafka broker ready at 127.0.0.1:";
    /** The broker's own warning (org.apache.kafka.common.network.Selector) about the HTTP request on its port. */
    static final String BROKER_WARNING = "Invalid receive (size = ";
    static final Duration START = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    @Test
    void theConsoleShowsTheScorersLinesTheDataDirectorysLogTheBrokersAndVerboseShowsBoth() throws Exception {
        Path quietData = dir.resolve("quiet");
        Path verboseData = dir.resolve("verbose");
        try (ChildScorer quiet = ChildScorer.embedded("quiet", quietData, List.of("--no-web"), BROKER_READY);
             ChildScorer verbose = ChildScorer.embedded("verbose", verboseData, List.of("--no-web", "--verbose"), BROKER_READY)) {
            // side by side: most of a start is waiting, so two take little longer than one
            CompletableFuture.allOf(CompletableFuture.runAsync(() -> startAndPoke(quiet, quietData)),
                    CompletableFuture.runAsync(() -> startAndPoke(verbose, verboseData))).join();
            awaitText(() -> read(verboseData.resolve(ConsoleLogs.FILE)), BROKER_WARNING, "the broker's warning in the verbose log file");
            awaitText(verbose::log, BROKER_WARNING, "the broker's warning on the verbose console");
            CompletableFuture.allOf(CompletableFuture.runAsync(() -> stop(quiet)), CompletableFuture.runAsync(() -> stop(verbose))).join();

            String console = quiet.log();
            String file = read(quietData.resolve(ConsoleLogs.FILE));
            assertThat(console).as("the start-up steps").contains(
                    "Starting the embedded Kafka broker and schema registry in ",
                    "(their logs: " + quietData.resolve(ConsoleLogs.FILE).toAbsolutePath() + ")",
                    "Starting the scorer (Kafka Streams: topics, state stores, first rebalance) ...",
                    BROKER_READY);
            assertThat(console).as("no broker line on the quiet console").doesNotContain(BROKER_WARNING, "Unexpected error from");
            assertThat(file).as("the broker's line and the scorer's, in mmgr.log")
                    .containsPattern("WARN +\\[[^\\]]*\\] org\\.apache\\.kafka\\.common\\.network\\.Selector - .*Unexpected error from")
                    .contains(BROKER_WARNING)
                    .containsPattern("INFO +\\[[^\\]]*\\] io\\.mmgr\\.stream\\.embedded\\.EmbeddedKafka - " + Pattern.quote(BROKER_READY));
            // every logger line on the quiet console is one of the scorer's: mmgr.log names its logger in full
            assertThat(quiet.foreignConsoleLines()).as("console:\n%s", console).isEmpty();
            assertThat(ChildScorer.CONSOLE_LOGGER.matcher(console).find()).as("logger lines on the quiet console").isTrue();
            try (Stream<Path> broker = Files.walk(quietData.resolve("broker"))) {
                assertThat(broker.filter(p -> p.getFileName().toString().equals(ConsoleLogs.FILE)))
                        .as("the log is not in the broker's own data").isEmpty();
            }

            assertThat(verbose.log()).as("--verbose: the broker's line on the console").contains(BROKER_WARNING)
                    .containsPattern("WARN +\\[[^\\]]*\\] Selector - .*Unexpected error from")
                    .contains("Starting the embedded Kafka broker and schema registry in ", BROKER_READY);
        }
    }

    /** Starts the scorer until its broker is up, then sends an HTTP request to the broker's port. */
    private static void startAndPoke(ChildScorer scorer, Path data) {
        try {
            scorer.start(START);
            Matcher port = Pattern.compile(Pattern.quote(BROKER_READY) + "(\\d+)").matcher(scorer.log());
            assertThat(port.find()).as("the broker's port in:\n%s", scorer.log()).isTrue();
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(port.group(1)))) {
                OutputStream out = socket.getOutputStream();
                out.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.getInputStream().read(); // the broker closes the connection
            }
            awaitText(() -> read(data.resolve(ConsoleLogs.FILE)), BROKER_WARNING, "the broker's warning in " + data);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void stop(ChildScorer scorer) {
        try {
            scorer.stop(); // SIGTERM: a build in the background ignores SIGINT, and so does its child JVM
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitText(java.util.function.Supplier<String> text, String wanted, String what) {
        // the timeout message carries the text so far
        Awaitility.await(what).atMost(Duration.ofSeconds(30)).pollInSameThread().pollDelay(Duration.ZERO)
                .until(text::get, t -> t.contains(wanted));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
