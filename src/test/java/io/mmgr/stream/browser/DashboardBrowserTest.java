package io.mmgr.stream.browser;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in headless Chromium during a demo run: the page loads before any score exists, the
 * leaderboard fills and the chart gains points from live updates without a reload, a sample's
 * drill-down shows its generation (served from the artifact store), its reference and why it failed.
 * Screenshots are kept in target/screenshots/.
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
        DemoSettings settings = new DemoSettings(dir, 0, List.of("maze", "magma"), 8, 1, 4, 1000,
                Duration.ofMillis(1500), 0, 11);
        StringWriter log = new StringWriter();
        try (DemoRun demo = DemoRun.start(settings); Chromium browser = Chromium.launch(chromium, 1400, 1000)) {
            demo.publishBenchmark(new PrintWriter(log));
            browser.navigate(demo.url());
            browser.await("document.readyState === 'complete' && window.mmgr && document.querySelector('#status').textContent === 'live'",
                    Duration.ofSeconds(30), "the page and its live connection");
            String loadId = browser.eval("window.mmgr.loadId").asText();
            assertThat(browser.eval("document.querySelectorAll('#leaderboard tbody tr[data-task]').length").asInt())
                    .as("nothing scored before the run starts").isZero();

            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread run = new Thread(() -> {
                try {
                    demo.simulate(new PrintWriter(log));
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "demo-simulation");
            run.start();

            // the leaderboard fills from live updates
            browser.await("document.querySelectorAll('#leaderboard tbody tr[data-task]').length >= 3",
                    Duration.ofSeconds(60), "leaderboard rows");
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
            assertThat(browser.eval("window.mmgr.events").asInt()).as("updates arrived as server-sent events").isGreaterThan(0);
            JsonNode taskCells = browser.eval("[...document.querySelectorAll('#leaderboard tbody tr[data-task]')].map(r => r.dataset.task)");
            assertThat(taskCells.toString()).contains("maze", "mind2web", "screenspot", "libero-spatial", "*");
            // the latest checkpoint is compared with its previous one
            assertThat(browser.eval("document.querySelector('#leaderboard tbody tr[data-task=\"maze\"]').children[3].textContent").asText())
                    .contains("pts");
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
            assertThat(browser.eval("document.querySelector('#sample-detail').textContent").asText())
                    .contains("maze-pixel.", "Fine-grained metrics", "judge");
            browser.screenshot(SCREENSHOTS.resolve("dashboard-drilldown.png"));
        }
    }
}
