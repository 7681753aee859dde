package io.mmgr.stream.tasks.example;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.cli.Main;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.GatedSample;
import io.mmgr.stream.tasks.JudgePrompt;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.SampleScorer;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.cli.EvalInputs;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/task-families.md's "Adding a task family", followed once: this folder is the whole family (its
 * names, ground truth schema, evaluator, rubric and template, gate, {@code eval} command and the
 * {@code TaskFamily} class), and {@code plugin/META-INF/services} beside its resources the one registration.
 * The registration sits in a folder of its own, as a plug-in jar would carry it, so the rest of the suite
 * does not see the family; here the context class loader, which {@link java.util.ServiceLoader} reads the
 * families from, includes it. Nothing outside this folder names the family.
 */
@Tag("unit")
class ExampleFamilyTest {

    @TempDir
    Path dir;

    /** Runs {@code body} with the example's registration on the class path, as a plug-in jar would put it. */
    static <T> T installed(Callable<T> body) throws Exception {
        URL root = ExampleFamilyTest.class.getResource("plugin/");
        assertThat(root).as("the example's registration folder").isNotNull();
        Thread thread = Thread.currentThread();
        ClassLoader old = thread.getContextClassLoader();
        try (URLClassLoader withExample = new URLClassLoader(new URL[] {root}, ExampleFamilyTest.class.getClassLoader())) {
            thread.setContextClassLoader(withExample);
            return body.call();
        } finally {
            thread.setContextClassLoader(old);
        }
    }

    static EvalSample sample(int count, String answer) {
        GenerationInputs inputs = GenerationInputs.newBuilder().setText(answer).build();
        return new EvalSample(EvalSample.event(ExampleMetrics.TASK, "text", inputs),
                EvalSample.item(ExampleMetrics.TASK, new CountTruth(count, "apples").groundTruth()));
    }

    @Test
    void theRegistrationAloneInstallsTheFamily() throws Exception {
        assertThat(TaskFamily.installed()).noneMatch(f -> f instanceof ExampleTasks);
        assertThat(TaskCatalog.load().find(ExampleMetrics.TASK)).isEmpty();
        installed(() -> {
            assertThat(TaskFamily.installed()).filteredOn(f -> f instanceof ExampleTasks).hasSize(1);
            assertThat(TaskCatalog.load().find(ExampleMetrics.TASK)).get()
                    .satisfies(spec -> assertThat(spec.family()).isEqualTo(ExampleMetrics.FAMILY));
            assertThat(EvaluatorRegistry.load().ids()).contains(ExampleMetrics.EVALUATOR);
            assertThat(RubricCatalog.load().find(ExampleMetrics.RUBRIC)).isPresent();
            return null;
        });
    }

    @Test
    void answersAreScoredByTheStreamsOwnCodeWithoutAJudge() throws Exception {
        installed(() -> {
            SampleScorer scorer = SampleScorer.load();
            EvalSample right = sample(3, "3 apples");
            GatedSample ok = scorer.score(right.event(), right.item(), EvalInputs.none()).sample();
            assertThat(ok.metrics()).containsEntry("example-count.count_correct", 1.0).containsEntry("example-count.abs_error", 0.0);
            assertThat(ok.gate().primary()).isEqualTo(1.0);
            assertThat(ok.gate().primarySource()).isEqualTo("exact");
            // the judged half is missing, so the sample is partial, not failed
            assertThat(ok.status()).isEqualTo(SampleStatus.PARTIAL);
            assertThat(ok.gate().missingChecks()).anyMatch(c -> c.contains("judge.names_what"));

            EvalSample wrong = sample(3, "I see 5 apples");
            GatedSample bad = scorer.score(wrong.event(), wrong.item(), EvalInputs.none()).sample();
            assertThat(bad.metrics()).containsEntry("example-count.count_correct", 0.0).containsEntry("example-count.abs_error", 2.0);
            assertThat(bad.gate().primary()).isEqualTo(0.0);
            assertThat(bad.gate().failedChecks()).anyMatch(c -> c.contains("example-count.count_correct"));

            EvalSample none = sample(3, "some apples");
            assertThat(scorer.score(none.event(), none.item(), EvalInputs.none()).sample().metrics())
                    .containsEntry("example-count.count_correct", 0.0).containsEntry("example-count.abs_error", null);

            // an item whose ground truth is not the family's payload is refused with the reason, as intake would
            BenchmarkItem shared = BenchmarkItem.newBuilder(right.item()).setGroundTruth(GroundTruth.newBuilder().setAnswer("3").build()).build();
            SampleScorer.Result refused = scorer.score(right.event(), shared, EvalInputs.none());
            assertThat(refused.rejected()).isTrue();
            assertThat(refused.rejection()).contains("example item has no count");
            return null;
        });
    }

    @Test
    void theJudgedHalfAsksAboutTheItemsOwnTruth() throws Exception {
        installed(() -> {
            EvalSample s = sample(3, "3 apples");
            JudgePrompt prompt = RubricCatalog.load().find(ExampleMetrics.RUBRIC).orElseThrow().prompt(s.event(), s.item());
            assertThat(prompt.toString()).contains("apples", "3 apples", ExampleMetrics.NAMES_WHAT);
            return null;
        });
    }

    /** A command line run as bin/mmgr runs it, with what it printed. */
    record Run(int exit, String out, String err) {
        static Run of(String... args) {
            PrintStream old = System.out;
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            StringWriter err = new StringWriter();
            int exit;
            System.setOut(new PrintStream(buf, true));
            try {
                var cl = Main.commandLine();
                cl.setErr(new PrintWriter(err));
                exit = cl.execute(args);
            } finally {
                System.setOut(old);
            }
            return new Run(exit, buf.toString().strip(), err.toString());
        }
    }

    @Test
    void evalExampleIsOfferedThroughTheSpi() throws Exception {
        Run absent = Run.of("eval", "example", "--count", "3", "--answer", "3");
        assertThat(absent.exit()).isEqualTo(2);
        assertThat(absent.err()).contains("example");
        installed(() -> {
            Run right = Run.of("eval", "example", "--count", "3", "--what", "apples", "--answer", "3 apples");
            assertThat(right.exit()).isEqualTo(0);
            assertThat(JsonOutput.parse(right.out())).isEqualTo(JsonOutput.parse(
                    "{\"count_correct\":1.0,\"abs_error\":0.0,\"overall\":1.0,\"failed_checks\":[]}"));
            Run wrong = Run.of("eval", "example", "--count", "3", "--answer", "four, no: 4");
            assertThat(JsonOutput.parse(wrong.out()).get("abs_error").asDouble()).isEqualTo(1.0);
            assertThat(JsonOutput.parse(wrong.out()).get("overall").asDouble()).isEqualTo(0.0);
            Run negative = Run.of("eval", "example", "--count", "-1", "--answer", "3");
            assertThat(negative.exit()).isEqualTo(2);
            assertThat(negative.err()).contains("error: 'count' must be a whole number, 0 or more");
            return null;
        });
    }

    @Test
    void anItemInJsonCarriesThePayloadAndEvalEventItemScoresIt() throws Exception {
        EvalSample s = sample(4, "4 apples");
        Path event = Files.writeString(dir.resolve("event.json"), JsonAvro.toJson(s.event()).toString());
        Path item = Files.writeString(dir.resolve("item.json"), JsonAvro.toJson(s.item()).toString());
        // as a JSON file the family's ground truth is the family's name and base64 bytes
        assertThat(JsonOutput.parse(Files.readString(item)).get("groundTruth").get("family").asText()).isEqualTo("example");
        installed(() -> {
            Run run = Run.of("eval", "--event", event.toString(), "--item", item.toString());
            assertThat(run.exit()).isEqualTo(0);
            var out = JsonOutput.parse(run.out());
            assertThat(out.get("status").asText()).isEqualTo("PARTIAL");
            assertThat(out.get("primary").asDouble()).isEqualTo(1.0);
            assertThat(out.get("metrics").get("example-count.count_correct").asDouble()).isEqualTo(1.0);
            return null;
        });
    }

    @Test
    void theFamilyUsesOnlyWhatAFamilyMay() {
        noClasses().that().resideInAPackage("io.mmgr.stream.tasks.example..")
                .should().dependOnClassesThat().resideInAnyPackage("io.mmgr.stream.cli..", "io.mmgr.stream.app..",
                        "io.mmgr.stream.topology..", "io.mmgr.stream.judge..", "io.mmgr.stream.tasks.maze..",
                        "io.mmgr.stream.tasks.sudoku..")
                .because("a family imports base, contract, the SPI and its commands' support only")
                .check(new ClassFileImporter().importClasses(ExampleTasks.class, CountTruth.class, CountEvaluator.class,
                        ExampleGate.class, ExampleRubric.class, EvalExampleCommand.class, ExampleMetrics.class));
    }
}
