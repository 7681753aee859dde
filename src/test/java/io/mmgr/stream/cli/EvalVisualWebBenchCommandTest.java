package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.cli.JsonOutput;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code mmgr eval visualwebbench} end to end on a file of all seven tasks, each sample built so that its
 * token counts (and so the rouge package's P, R and F) or its parsed letter are known; the expected columns
 * are computed here from those counts with the official aggregation.
 */
@Tag("unit")
class EvalVisualWebBenchCommandTest {

    @TempDir
    Path dir;

    static double f(double p, double r) {
        return 2.0 * ((p * r) / (p + r + 1e-8));
    }

    static final double PERFECT = f(1.0, 1.0);

    private record Run(int code, String out, String err) {
        JsonNode last() throws IOException {
            String[] lines = out.strip().split("\n");
            return JsonOutput.MAPPER.readTree(lines[lines.length - 1]);
        }
    }

    private static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Path write(List<String> lines) throws IOException {
        Path file = dir.resolve("predictions.jsonl");
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    static String line(String id, String task, String prediction, Object answer) {
        var n = JsonOutput.MAPPER.createObjectNode().put("id", id).put("subtask", task).put("prediction", prediction);
        n.set("answer", JsonOutput.MAPPER.valueToTree(answer));
        return n.toString();
    }

    static List<String> allSeven() {
        List<String> l = new ArrayList<>();
        // web_caption: {the cat sat} of {the cat sat on mat}: P 1, R 3/5 (R-2: 2 of 5 bigrams); "" scores 0
        l.add(line("c1", "web_caption", "the cat sat", "the cat sat on the mat"));
        l.add(line("c2", "web_caption", "", "A web page"));
        // heading_ocr: exact (F = PERFECT) and a case mismatch "welcome" vs "Welcome": 0
        l.add(line("h1", "heading_ocr", "Sign in", "Sign in"));
        l.add(line("h2", "heading_ocr", "welcome", "Welcome"));
        // element_ocr: "a" is one character, scored as " ": 0; "Log in" of "Log in now": P 1, R 2/3 (R-2 1 of 2)
        l.add(line("e1", "element_ocr", "a", "a"));
        l.add(line("e2", "element_ocr", "Log in", "Log in now"));
        // webqa: best of two golds (exact); a sample without gold answers is dropped; "red" vs "blue": 0
        l.add(line("q1", "webqa", "blue car", List.of("red car", "blue car")));
        l.add(line("q2", "webqa", "blue car", List.of()));
        l.add(line("q3", "webqa", "red", List.of("blue")));
        // element_ground: B right, "B\n" wrong (a newline is not a space), "b" right (one character upper-cased)
        l.add(line("g1", "element_ground", "B", 1));
        l.add(line("g2", "element_ground", "B\n", 1));
        l.add(line("g3", "element_ground", "b", 1));
        // action_prediction: "I. think (B)" is I, wrong; "(A) or (C)" is C, right
        l.add(line("p1", "action_prediction", "I. think (B)", 1));
        l.add(line("p2", "action_prediction", "(A) or (C)", 2));
        // action_ground: "" is no answer even for option A; "The answer is H" right
        l.add(line("a1", "action_ground", "", 0));
        l.add(line("a2", "action_ground", "The answer is H", 7));
        return l;
    }

    @Test
    void allSevenTasksMatchTheOfficialAggregationWorkedByHand() throws Exception {
        Run r = run("eval", "visualwebbench", "--predictions", write(allSeven()).toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.last();
        assertThat(j.fieldNames()).toIterable().containsExactly("web_caption", "webqa", "heading_ocr", "element_ocr",
                "element_ground", "action_prediction", "action_ground", "overall");

        double captionL = (f(1.0, 0.6) + 0.0) / 2 * 100;
        assertThat(j.at("/web_caption/rouge_1").doubleValue()).isEqualTo(captionL);
        assertThat(j.at("/web_caption/rouge_2").doubleValue()).isEqualTo((f(1.0, 0.4) + 0.0) / 2 * 100);
        assertThat(j.at("/web_caption/rouge_l").doubleValue()).isEqualTo(captionL);
        double headingL = (PERFECT + 0.0) / 2 * 100;
        assertThat(j.at("/heading_ocr/rouge_l").doubleValue()).isEqualTo(headingL);
        assertThat(j.at("/heading_ocr/rouge_2").doubleValue()).isEqualTo(headingL);
        double elementL = (0.0 + f(1.0, 2 / 3.0)) / 2 * 100;
        assertThat(j.at("/element_ocr/rouge_l").doubleValue()).isEqualTo(elementL);
        assertThat(j.at("/element_ocr/rouge_2").doubleValue()).isEqualTo((0.0 + f(1.0, 0.5)) / 2 * 100);
        double qa = (PERFECT + 0.0) / 2 * 100;
        assertThat(j.at("/webqa/f1").doubleValue()).isEqualTo(qa);
        assertThat(j.at("/element_ground/accuracy").doubleValue()).isEqualTo(2 / 3.0 * 100);
        assertThat(j.at("/action_prediction/accuracy").doubleValue()).isEqualTo(50.0);
        assertThat(j.at("/action_ground/accuracy").doubleValue()).isEqualTo(50.0);
        double average = (captionL + qa + headingL + elementL + 2 / 3.0 * 100 + 50 + 50) / 7;
        assertThat(j.at("/overall/average").doubleValue()).isCloseTo(average, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(r.err()).contains("webqa: 1 of 3 samples dropped");
    }

    @Test
    void aPredictionTheOfficialCodeRaisesOnNullsItsTaskAndExitsOne() throws Exception {
        List<String> lines = allSeven();
        lines.add(line("c3", "web_caption", "...", "Home"));
        Run r = run("eval", "visualwebbench", "--predictions", write(lines).toString());
        assertThat(r.code()).isEqualTo(1);
        JsonNode j = r.last();
        assertThat(j.at("/web_caption/rouge_l").isNull()).isTrue();
        assertThat(j.at("/web_caption/rouge_1").isNull()).isTrue();
        assertThat(j.at("/overall/average").isNull()).isTrue();
        assertThat(j.at("/webqa/f1").isNumber()).isTrue();
        assertThat(r.err()).contains("line 17 (id 'c3')").contains("Hypothesis is empty.");
    }

    @Test
    void tasksAbsentFromTheFileAreNullWithoutAnError() throws Exception {
        Run r = run("eval", "visualwebbench", "--predictions",
                write(List.of(line("g1", "element_ground", "C", 2), line("g2", "element_ground", "D", 2))).toString());
        assertThat(r.code()).isZero();
        JsonNode j = r.last();
        assertThat(j.at("/element_ground/accuracy").doubleValue()).isEqualTo(50.0);
        assertThat(j.at("/web_caption/rouge_l").isNull()).isTrue();
        assertThat(j.at("/webqa/f1").isNull()).isTrue();
        assertThat(j.at("/overall/average").isNull()).isTrue();
    }

    @Test
    void malformedLinesAreNamed() throws Exception {
        record Case(String line, String message) {
        }
        for (Case c : List.of(
                new Case(line("x", "tables", "a", "b"), "unknown subtask 'tables'"),
                new Case("{\"id\":\"x\",\"subtask\":\"webqa\",\"prediction\":3,\"answer\":[\"a\"]}", "'prediction' must be a string"),
                new Case("{\"id\":\"x\",\"subtask\":\"webqa\",\"answer\":[\"a\"]}", "'prediction' is missing"),
                new Case(line("x", "webqa", "a", "a"), "list of strings"),
                new Case(line("x", "web_caption", "a", List.of("a")), "must be a string"),
                new Case(line("x", "action_ground", "a", "B"), "option index 0-7"),
                new Case(line("x", "action_ground", "a", 9), "0-7"),
                new Case(line("x", "heading_ocr", "a", "."), "Reference is empty."))) {
            Run r = run("eval", "visualwebbench", "--predictions", write(List.of(line("ok", "webqa", "a", List.of("a")), c.line())).toString());
            assertThat(r.code()).as(c.line()).isEqualTo(2);
            assertThat(r.err()).as(c.line()).contains("line 2").contains(c.message());
        }
        Run dup = run("eval", "visualwebbench", "--predictions",
                write(List.of(line("q", "webqa", "a", List.of("a")), line("q", "webqa", "b", List.of("b")))).toString());
        assertThat(dup.code()).isEqualTo(2);
        assertThat(dup.err()).contains("already appears on line 1");
    }

    @Test
    void readsUtf8() throws Exception {
        // "größe" is one token on both sides; read as Latin-1 it would not be
        Path file = dir.resolve("utf8.jsonl");
        Files.writeString(file, line("h", "heading_ocr", "Größe wählen", "Größe") + "\n", StandardCharsets.UTF_8);
        Run r = run("eval", "visualwebbench", "--predictions", file.toString());
        assertThat(r.last().at("/heading_ocr/rouge_1").doubleValue()).isEqualTo(f(0.5, 1.0) * 100);
    }
}
