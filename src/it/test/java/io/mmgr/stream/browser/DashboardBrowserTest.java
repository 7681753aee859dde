package io.mmgr.stream.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.cli.Main;
import io.mmgr.stream.demo.DemoRun;
import io.mmgr.stream.demo.DemoSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import io.mmgr.stream.it.SystemPackages;
import io.mmgr.stream.web.WebAccess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in headless Chromium during a demo run: the page loads before any score exists, the
 * leaderboard fills and the chart gains points from live updates without a reload, a sample's
 * drill-down shows its generation (served from the artifact store), its reference and why it failed.
 * The demo requires an access token: the page asks for it (a wrong one is refused), takes it once from the
 * URL's fragment, and everything after (API, live updates, media, report) rides the session cookie,
 * all under the page's Content-Security-Policy with no violation. Screenshots are kept in target/screenshots/.
 *
 * <p>Without Chromium the test is skipped with a message, unless the build asks for the browser
 * ({@code CI=true}, as .ci/run sets, or {@code -Dmmgr.browser.required=true}): then it fails.
 */
@Tag("browser")
class DashboardBrowserTest {

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    @TempDir
    Path dir;

    static Path chromiumOrSkip() {
        Optional<Path> binary = Chromium.find();
        if (binary.isEmpty()) {
            String message = "headless Chromium is not installed (looked for " + Chromium.CANDIDATES
                    + " and $CHROMIUM): run .ci/run, or install Debian's package with 'apt-get install chromium'";
            SystemPackages.require(false, message, "mmgr.browser.required");
        }
        return binary.get();
    }

    @Test
    void theDashboardFillsLiveAndDrillsDownIntoASample() throws Exception {
        Path chromium = chromiumOrSkip();
        // four tasks of 10 items: 40 samples per checkpoint, checkpoint 3 made worse on purpose
        DemoSettings settings = new DemoSettings(dir, 0, 0, 0, List.of("maze", "magma"), 10, 1, 4, 1000,
                Duration.ofMillis(1500), 3, 11);
        StringWriter log = new StringWriter();
        String token = "browser-test-token-" + Long.toHexString(System.nanoTime()) + "0123456789";
        try (DemoRun demo = DemoRun.start(settings, new PrintWriter(log), WebAccess.token(token));
             Chromium browser = Chromium.launch(chromium, 1400, 1000)) {
            assertThat(log.toString()).as("start-up prints its steps").contains("Starting the embedded Kafka broker",
                    "Starting the scorer", "scorer running");
            demo.publishBenchmark(new PrintWriter(log));
            demo.awaitBenchmarkLoaded(Duration.ofSeconds(30));
            // without the token: the page loads (it holds no data) and asks for it; a wrong one is refused
            browser.navigate(demo.url());
            browser.await("document.readyState === 'complete' && window.mmgr && !document.querySelector('#login').hidden",
                    Duration.ofSeconds(30), "the page asking for the token");
            assertThat(browser.eval("document.querySelector('#status').textContent").asText()).isEqualTo("access token required");
            assertThat(browser.eval("fetch('/api/runs').then(r => r.status)").asInt()).isEqualTo(401);
            browser.eval("(() => { document.querySelector('#login-token').value = 'wrong-token-0123456789'; "
                    + "document.querySelector('#login').requestSubmit(); return true; })()");
            browser.await("document.querySelector('#login-error').textContent", Duration.ofSeconds(10), "the refusal");
            assertThat(browser.eval("document.cookie").asText()).as("no session").isEmpty();
            // the token once in the URL's fragment: traded for the cookie, and gone from the address bar
            browser.navigate("about:blank");
            browser.navigate(demo.url() + "#token=" + token);
            browser.await("document.readyState === 'complete' && window.mmgr && document.querySelector('#status').textContent === 'live'",
                    Duration.ofSeconds(30), "the page and its live connection");
            assertThat(browser.eval("location.href").asText()).doesNotContain(token).doesNotContain("#");
            assertThat(browser.eval("document.cookie").asText()).as("HttpOnly: out of script's reach").isEmpty();
            assertThat(browser.eval("document.querySelector('#login').hidden").asBoolean()).isTrue();
            assertThat(browser.eval("fetch('/api/runs', {credentials: 'omit'}).then(r => r.status)").asInt())
                    .as("the cookie is what lets the page in").isEqualTo(401);
            String loadId = browser.eval("window.mmgr.loadId").asText();
            assertThat(browser.eval("document.querySelectorAll('#leaderboard tbody tr[data-task]').length").asInt())
                    .as("nothing scored before the run starts").isZero();
            assertThat(browser.eval("document.querySelector('#checkpoints').textContent").asText())
                    .as("the empty state says what it waits for").contains("Waiting for the first scores");

            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread run = new Thread(() -> {
                try {
                    demo.simulate(new PrintWriter(log));
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "demo-simulation");
            run.start();

            // progress is right from the first sample: the whole benchmark is expected
            String firstProgress = browser.await("(() => { const e = document.querySelector('#checkpoints li[data-checkpoint] .progress-text');"
                    + " return e ? e.textContent : false; })()", Duration.ofSeconds(60), "the first checkpoint's progress").asText();
            String firstCheckpoint = browser.eval("document.querySelector('#checkpoints li[data-checkpoint]').dataset.checkpoint").asText();
            String firstExpected = firstProgress.replaceAll("^\\d+ / (\\d+).*$", "$1");
            // the leaderboard fills from live updates
            browser.await("document.querySelectorAll('#leaderboard tbody tr[data-task]').length >= 3",
                    Duration.ofSeconds(180), "leaderboard rows");
            JsonNode firstColours = browser.eval("Object.fromEntries([...document.querySelectorAll('#legend span[data-task]')]"
                    + ".map(e => [e.dataset.task, e.dataset.color]))");
            int firstPoints = browser.await("+document.querySelector('#chart svg').dataset.points",
                    Duration.ofSeconds(60), "the first chart points").asInt();
            // ... and the chart gains points as later checkpoints are scored
            int morePoints = browser.await("(() => { const n = +document.querySelector('#chart svg').dataset.points; return n > "
                    + firstPoints + " ? n : 0; })()", Duration.ofSeconds(90), "more chart points").asInt();
            assertThat(morePoints).isGreaterThan(firstPoints);
            run.join(120_000);
            assertThat(failure.get()).as("the simulation: %s", log).isNull();
            // every checkpoint of every task is on the chart: 4 checkpoints x (maze, mind2web, screenspot, libero-spatial)
            browser.await("+document.querySelector('#chart svg').dataset.points >= 16", Duration.ofSeconds(60), "all points");
            browser.await("document.querySelectorAll('#checkpoints li[data-checkpoint]').length === 4", Duration.ofSeconds(30),
                    "four checkpoints with progress bars");
            browser.await("[...document.querySelectorAll('#checkpoints .progress-text')].every(e => /^(\\d+) \\/ \\1/.test(e.textContent))",
                    Duration.ofSeconds(60), "every checkpoint fully scored");

            assertThat(browser.eval("window.mmgr.loadId").asText()).as("the page was never reloaded").isEqualTo(loadId);

            // progress was right from the first sample: the count expected then is the whole benchmark's
            String finalProgress = browser.eval("document.querySelector('#checkpoints li[data-checkpoint=\"" + firstCheckpoint
                    + "\"] .progress-text').textContent").asText();
            assertThat(finalProgress).as("expected count from the first sample on").startsWith(firstExpected + " / " + firstExpected);
            assertThat(firstProgress).matches("\\d+ / " + firstExpected + ".*");

            // stable colours: every task keeps the colour it had when it first appeared
            JsonNode colours = browser.eval("Object.fromEntries([...document.querySelectorAll('#legend span[data-task]')]"
                    + ".map(e => [e.dataset.task, e.dataset.color]))");
            firstColours.fields().forEachRemaining(e -> assertThat(colours.get(e.getKey())).as("colour of %s", e.getKey())
                    .isEqualTo(e.getValue()));
            assertThat(colours.has("*")).as("an all-tasks line on the chart").isTrue();
            assertThat(browser.eval("!!document.querySelector('#chart polyline[data-task=\"*\"]')").asBoolean()).isTrue();

            // the overall verdict: an all-tasks alert for the regressed checkpoint, final (no stale partial figures)
            browser.await("!!document.querySelector('#alerts li[data-task=\"*\"][data-checkpoint=\"ckpt-3000\"]"
                    + "[data-kind=\"DROP_VS_PREVIOUS\"][data-partial=\"false\"]')", Duration.ofSeconds(60), "the overall alert");
            browser.await("[...document.querySelectorAll('#alerts li[data-checkpoint]')].every(l => l.dataset.partial === 'false')",
                    Duration.ofSeconds(60), "no partial alert left");
            JsonNode alerts = browser.eval("fetch('/api/alerts').then(r => r.json())");
            JsonNode runs = browser.eval("fetch('/api/runs').then(r => r.json())");
            java.util.Map<String, Long> expected = new java.util.HashMap<>();
            runs.get(0).get("checkpoints").forEach(c -> expected.put(c.get("checkpointId").asText(), c.get("samplesExpected").asLong()));
            assertThat(alerts).isNotEmpty().allSatisfy(a -> {
                assertThat(a.get("partial").asBoolean()).as("%s", a).isFalse();
                assertThat(a.get("message").asText()).doesNotContain("partial");
            });
            assertThat(alerts).filteredOn(a -> a.get("task").asText().equals("*"))
                    .allSatisfy(a -> assertThat(a.get("samples").asLong()).isEqualTo(expected.get(a.get("checkpointId").asText())));
            // the all-tasks row carries its comparison
            browser.eval("(() => { document.querySelector('#checkpoints li[data-checkpoint=\"ckpt-3000\"]').click(); return true; })()");
            browser.await("document.querySelector('#chart svg').dataset.selected === 'ckpt-3000'", Duration.ofSeconds(10),
                    "the selected checkpoint marked on the chart");
            assertThat(browser.eval("!!document.querySelector('#chart .selected-mark')").asBoolean()).isTrue();
            assertThat(browser.eval("document.querySelector('#leaderboard tbody tr[data-task=\"*\"]').children[3].textContent").asText())
                    .contains("pts").contains("▼");
            // the best checkpoint, marked in the list and on the chart: the highest complete all-tasks rate
            String best = null;
            double bestRate = -1;
            for (JsonNode c : runs.get(0).get("checkpoints")) {
                if (c.get("primaryRate").asDouble() > bestRate) {
                    bestRate = c.get("primaryRate").asDouble();
                    best = c.get("checkpointId").asText();
                }
            }
            assertThat(browser.eval("document.querySelector('#chart svg').dataset.best").asText()).isEqualTo(best);
            assertThat(browser.eval("document.querySelector('#checkpoints li.best').dataset.checkpoint").asText()).isEqualTo(best);
            assertThat(browser.eval("document.querySelectorAll('#chart .best-mark').length").asInt()).isEqualTo(1);
            // REST rows carry the time they last changed: two reads a second apart agree, once every row has its
            // samples (a task row trails its all-tasks row by the agreement join's two hops, so the all-tasks
            // progress above can be complete while a task row still takes its last sample)
            browser.await("fetch('/api/leaderboard').then(r => r.json()).then(rows => rows.length > 0"
                    + " && rows.every(r => r.samplesScored === r.samplesExpected))", Duration.ofSeconds(60), "every row complete");
            JsonNode rows1 = browser.eval("fetch('/api/leaderboard').then(r => r.json())");
            Thread.sleep(1100);
            JsonNode rows2 = browser.eval("fetch('/api/leaderboard').then(r => r.json())");
            assertThat(rows2).isEqualTo(rows1);
            assertThat(browser.eval("window.mmgr.events").asInt()).as("updates arrived as server-sent events").isGreaterThan(0);
            JsonNode taskCells = browser.eval("[...document.querySelectorAll('#leaderboard tbody tr[data-task]')].map(r => r.dataset.task)");
            assertThat(taskCells.toString()).contains("maze", "mind2web", "screenspot", "libero-spatial", "*");
            // the latest checkpoint is compared with its previous one
            assertThat(browser.eval("document.querySelector('#leaderboard tbody tr[data-task=\"maze\"]').children[3].textContent").asText())
                    .contains("pts");
            browser.eval("(() => { document.querySelector('#checkpoints li[data-checkpoint=\"" + best + "\"]').click(); return true; })()");
            browser.await("document.querySelector('#chart svg').dataset.selected === '" + best + "'", Duration.ofSeconds(10), "best selected");
            browser.screenshot(SCREENSHOTS.resolve("dashboard.png"));

            // drill-down: the maze row's failing samples, then the first one
            browser.eval("document.querySelector('#leaderboard tbody tr[data-task=\"maze\"]').click(), true");
            browser.await("document.querySelectorAll('#drill-list li[data-sample]').length", Duration.ofSeconds(20), "the sample list");
            String sample = browser.eval("(() => { const li = document.querySelector('#drill-list li[data-sample]'); li.click(); return li.dataset.sample; })()")
                    .asText();
            browser.await("document.querySelector('#sample-detail').dataset.sample === '" + sample + "'", Duration.ofSeconds(20),
                    "the sample's detail");
            browser.await("[...document.querySelectorAll('#generation img, #generation video')].some(m => "
                    + "(m.tagName === 'IMG' && m.complete && m.naturalWidth > 0) || (m.tagName === 'VIDEO' && m.readyState >= 2))",
                    Duration.ofSeconds(20), "the generation's image or video, loaded from the scorer");
            browser.await("[...document.querySelectorAll('#reference img')].some(m => m.complete && m.naturalWidth > 0)",
                    Duration.ofSeconds(20), "the reference images");
            String why = browser.eval("document.querySelector('#sample-detail .why').textContent").asText();
            assertThat(why).as("a failing sample says why").contains("check failed");
            assertThat(why).as("the demo has no judge: its checks are listed, and called unavailable")
                    .contains("check unavailable: judge.maze_changed=0", "part judge unavailable: no judge configured")
                    .doesNotContain("pending");
            assertThat(browser.eval("document.querySelector('#sample-detail').textContent").asText())
                    .contains("maze-pixel.", "Fine-grained metrics", "judge");
            browser.screenshot(SCREENSHOTS.resolve("dashboard-drilldown.png"));
            // the media came from the artifact endpoint, by where they were recorded, never by a type the page chose
            JsonNode media = browser.eval("[...document.querySelectorAll('#generation img, #generation video, #reference img')]"
                    + ".map(m => m.getAttribute('src'))");
            assertThat(media).isNotEmpty().allSatisfy(src -> assertThat(src.asText()).startsWith("/api/artifact?")
                    .contains("&index=").doesNotContain("mediaType"));
            JsonNode artifact = browser.eval("fetch(document.querySelector('#reference img').getAttribute('src'))"
                    + ".then(r => [r.status, r.headers.get('content-type'), r.headers.get('x-content-type-options')])");
            assertThat(artifact.toString()).isEqualTo("[200,\"image/png\",\"nosniff\"]");
            assertThat(browser.eval("window.mmgr.cspViolations").toString()).as("the dashboard works under its policy").isEqualTo("[]");
            assertThat(browser.eval("getComputedStyle(document.querySelector('#checkpoints .bar span')).width").asText())
                    .as("the progress bars' widths, set through the CSSOM").isNotEqualTo("0px");

            // the CLI reaches the demo through its data directory, as it reaches 'run'
            StringWriter cli = new StringWriter();
            int rc = Main.commandLine().setOut(new PrintWriter(cli)).execute("leaderboard", "--metrics", "--run", demo.runId(),
                    "--data-dir", dir.toString());
            assertThat(rc).as("%s", cli).isZero();
            assertThat(cli.toString()).contains(demo.runId(), "ckpt-4000", "libero-spatial");

            // the static report: from the topics, self-contained, printable to PDF; the dashboard links to it
            Path report = dir.resolve("report.html");
            rc = Main.commandLine().setOut(new PrintWriter(cli)).execute("report", "--run", demo.runId(), "--checkpoint", "ckpt-3000",
                    "--data-dir", dir.toString(), "--out", report.toString());
            assertThat(rc).as("%s", cli).isZero();
            String html = java.nio.file.Files.readString(report);
            assertThat(html).doesNotContainIgnoringCase("<script").doesNotContain("src=\"http").doesNotContain("href=\"http")
                    .doesNotContain("url(").contains("<svg", "★ best", "ckpt-3000 on all tasks dropped", "all tasks");
            assertThat(browser.eval("document.querySelector('#report-link').getAttribute('href')").asText())
                    .startsWith("/api/report?run=" + demo.runId());
            JsonNode served = browser.eval("fetch(document.querySelector('#report-link').getAttribute('href'))"
                    + ".then(r => [r.status, r.headers.get('content-security-policy')])");
            assertThat(served.get(0).asInt()).isEqualTo(200);
            assertThat(served.get(1).asText()).startsWith(io.mmgr.stream.report.ReportPage.CSP);
            browser.navigate(report.toUri().toString());
            browser.await("document.readyState === 'complete' && !!document.querySelector('#board')", Duration.ofSeconds(20), "the report");
            assertThat(browser.eval("performance.getEntriesByType('resource').length").asInt()).as("nothing fetched").isZero();
            browser.screenshot(SCREENSHOTS.resolve("report.png"));
            Path pdf = SCREENSHOTS.resolve("report.pdf");
            browser.printToPdf(pdf);
            byte[] bytes = java.nio.file.Files.readAllBytes(pdf);
            assertThat(new String(bytes, 0, 5, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("%PDF-");
            assertThat(bytes.length).isGreaterThan(10_000);
        }
    }
}
