package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.cli.FamilySample;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.magma.AitwEvaluator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs the {@code eval} subcommands on generated JSONL files. Every line is built as a known case
 * (right element by id, click on the box edge, click outside, partial operation, missing step, ...)
 * whose expected outcome the generator records, and the expected aggregates are computed here from
 * those records, not by the code under test.
 */
@Tag("unit")
class EvalMagmaCommandsTest {

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
        JsonNode json() throws IOException {
            return JsonOutput.MAPPER.readTree(out);
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

    private Path write(String name, List<String> lines) throws IOException {
        Path file = dir.resolve(name);
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    private static ObjectNode obj() {
        return JsonOutput.MAPPER.createObjectNode();
    }

    private static ArrayNode nums(double... values) {
        ArrayNode a = JsonOutput.MAPPER.createArrayNode();
        for (double v : values) {
            a.add(v);
        }
        return a;
    }

    // ---- Mind2Web ----------------------------------------------------------------------------

    /** Expected outcome of one generated step. */
    private record Expected(boolean elementOk, double f1) {
        boolean success() {
            return elementOk && f1 == 1.0;
        }
    }

    private static final String[] WORDS = {"paris", "london", "blue", "cheap", "flight", "hotel", "red", "shoes"};

    @Test
    void mind2webMetricsMatchIndependentlyComputedExpectations() throws Exception {
        Random random = new Random(7);
        List<String> lines = new ArrayList<>();
        List<List<Expected>> episodes = new ArrayList<>();
        for (int e = 0; e < 40; e++) {
            List<Expected> expected = new ArrayList<>();
            int steps = 1 + random.nextInt(6);
            for (int s = 0; s < steps; s++) {
                double x1 = random.nextInt(500);
                double y1 = random.nextInt(500);
                double x2 = x1 + 10 + random.nextInt(90);
                double y2 = y1 + 10 + random.nextInt(90);
                String id = "e" + e + "-" + s;
                ObjectNode gold = obj().put("element", id);
                gold.set("bbox", nums(x1, y1, x2, y2));
                ObjectNode pred = obj();
                boolean hasPred = true;
                int kind = random.nextInt(6);
                String w1 = WORDS[random.nextInt(4)];
                String w2 = WORDS[4 + random.nextInt(2)];
                String w3 = WORDS[6 + random.nextInt(2)];
                switch (kind) {
                    case 0 -> { // right element by id; case differs
                        gold.put("op", "TYPE").put("value", w1 + " " + w2);
                        pred.put("element", id).put("op", "type").put("value", (w1 + " " + w2).toUpperCase());
                        expected.add(new Expected(true, 1.0));
                    }
                    case 1 -> { // click inside the box, on a corner half of the time
                        gold.put("op", "CLICK");
                        boolean corner = random.nextBoolean();
                        pred.set("point", corner ? nums(x2, y1) : nums((x1 + x2) / 2, (y1 + y2) / 2));
                        pred.put("op", "CLICK");
                        expected.add(new Expected(true, 1.0));
                    }
                    case 2 -> { // click just right of the box, wrong id
                        gold.put("op", "SELECT").put("value", w1);
                        pred.put("element", "other").set("point", nums(x2 + 0.5, y1));
                        pred.put("op", "SELECT").put("value", w1);
                        expected.add(new Expected(false, 1.0));
                    }
                    case 3 -> { // right element, value half right: {type, w1, w2} vs {type, w1, w3}
                        gold.put("op", "TYPE").put("value", w1 + " " + w2);
                        pred.put("element", id).put("op", "TYPE").put("value", w1 + " " + w3);
                        expected.add(new Expected(true, 2.0 / 3));
                    }
                    case 4 -> { // no prediction for this step
                        gold.put("op", "CLICK");
                        hasPred = false;
                        expected.add(new Expected(false, 0.0));
                    }
                    default -> { // right element, no common token: {click} vs {type, w3}
                        gold.put("op", "CLICK");
                        pred.put("element", id).put("op", "TYPE").put("value", w3);
                        expected.add(new Expected(true, 0.0));
                    }
                }
                ObjectNode line = obj().put("episode", "ep" + e).put("step", s);
                line.set("gold", gold);
                if (hasPred) {
                    line.set("pred", pred);
                }
                lines.add(line.toString());
            }
            episodes.add(expected);
        }
        Collections.shuffle(lines, random);

        double ele = 0;
        double f1 = 0;
        double ssr = 0;
        int tasksOk = 0;
        int steps = 0;
        int stepsOk = 0;
        for (List<Expected> ep : episodes) {
            ele += ep.stream().filter(Expected::elementOk).count() / (double) ep.size();
            f1 += ep.stream().mapToDouble(Expected::f1).average().orElseThrow();
            long ok = ep.stream().filter(Expected::success).count();
            ssr += ok / (double) ep.size();
            tasksOk += ok == ep.size() ? 1 : 0;
            steps += ep.size();
            stepsOk += (int) ok;
        }
        int n = episodes.size();

        Run r = run("eval", "mind2web", "--steps", write("m2w.jsonl", lines).toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().strip()).doesNotContain("\n");
        JsonNode json = r.json();
        assertThat(json.get("element_selection_accuracy").doubleValue()).isCloseTo(ele / n, within(1e-12));
        assertThat(json.get("operation_f1").doubleValue()).isCloseTo(f1 / n, within(1e-12));
        assertThat(json.get("step_success_rate").doubleValue()).isCloseTo(ssr / n, within(1e-12));
        assertThat(json.get("task_success_rate").doubleValue()).isCloseTo(tasksOk / (double) n, within(1e-12));
        assertThat(json.get("episodes").intValue()).isEqualTo(n);
        assertThat(json.get("steps").intValue()).isEqualTo(steps);
        assertThat(json.get("micro").get("step_success_rate").doubleValue()).isCloseTo(stepsOk / (double) steps, within(1e-12));
        // the data must exercise the difference between the two averages
        assertThat(ssr / n).isNotCloseTo(stepsOk / (double) steps, within(1e-6));
    }

    @Test
    void mind2webBadLinesNameTheLine() throws Exception {
        String ok0 = "{\"episode\":\"e1\",\"step\":0,\"gold\":{\"element\":\"a\",\"op\":\"CLICK\"},\"pred\":{\"element\":\"a\",\"op\":\"CLICK\"}}";
        String ok1 = "{\"episode\":\"e1\",\"step\":1,\"gold\":{\"element\":\"b\",\"op\":\"CLICK\"},\"pred\":{\"element\":\"b\",\"op\":\"CLICK\"}}";
        String badBox = "{\"episode\":\"e2\",\"step\":0,\"gold\":{\"bbox\":[1,2,3],\"op\":\"CLICK\"},\"pred\":{\"element\":\"a\"}}";
        Run r = run("eval", "mind2web", "--steps", write("bad.jsonl", List.of(ok0, ok1, badBox)).toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("line 3").contains("bbox must be [x1, y1, x2, y2]").doesNotContain("Exception").doesNotContain("\tat ");

        String noTarget = "{\"episode\":\"e2\",\"step\":0,\"gold\":{\"element\":\"a\",\"op\":\"CLICK\"},\"pred\":{\"op\":\"CLICK\"}}";
        Run r2 = run("eval", "mind2web", "--steps", write("bad2.jsonl", List.of(ok0, "", noTarget)).toString());
        assertThat(r2.code()).isEqualTo(2);
        assertThat(r2.err()).contains("line 3").contains("element id or a point");

        Run dup = run("eval", "mind2web", "--steps", write("dup.jsonl", List.of(ok0, ok1, ok0)).toString());
        assertThat(dup.code()).isEqualTo(2);
        assertThat(dup.err()).contains("line 3").contains("appears twice (first on line 1)");

        Run gap = run("eval", "mind2web", "--steps", write("gap.jsonl", List.of(ok1)).toString());
        assertThat(gap.code()).isEqualTo(2);
        assertThat(gap.err()).contains("line 1").contains("no step 0");

        Run json = run("eval", "mind2web", "--steps", write("json.jsonl", List.of(ok0, "{\"episode\": ")).toString());
        assertThat(json.code()).isEqualTo(2);
        assertThat(json.err()).contains("line 2").contains("not valid JSON");

        Run missing = run("eval", "mind2web", "--steps", dir.resolve("nope.jsonl").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file");
    }

    // ---- ScreenSpot --------------------------------------------------------------------------

    @Test
    void screenSpotAccuracyPerKind() throws Exception {
        Random random = new Random(11);
        List<String> lines = new ArrayList<>();
        int[] clicks = new int[2];
        int[] correct = new int[2];
        for (int i = 0; i < 150; i++) {
            boolean icon = random.nextInt(3) == 0;
            double x1 = random.nextDouble() * 0.8;
            double y1 = random.nextDouble() * 0.8;
            double x2 = x1 + 0.01 + random.nextDouble() * 0.1;
            double y2 = y1 + 0.01 + random.nextDouble() * 0.1;
            int where = random.nextInt(3);
            double[] point = switch (where) {
                case 0 -> new double[] {x1 + (x2 - x1) * random.nextDouble(), y1 + (y2 - y1) * random.nextDouble()};
                case 1 -> new double[] {x1, y2}; // on the edge: inside
                default -> new double[] {x1 + (x2 - x1) / 2, y2 + 0.001 + random.nextDouble() * 0.05}; // below
            };
            ObjectNode line = obj().put("id", "s" + i).put("kind", icon ? "icon" : "text");
            line.set("bbox", nums(x1, y1, x2, y2));
            line.set("point", nums(point));
            lines.add(line.toString());
            clicks[icon ? 1 : 0]++;
            correct[icon ? 1 : 0] += where < 2 ? 1 : 0;
        }
        Run r = run("eval", "screenspot", "--clicks", write("ss.jsonl", lines).toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = r.json();
        assertThat(json.get("click_accuracy").doubleValue())
                .isCloseTo((correct[0] + correct[1]) / 150.0, within(1e-12));
        assertThat(json.get("click_accuracy_text").doubleValue()).isCloseTo(correct[0] / (double) clicks[0], within(1e-12));
        assertThat(json.get("click_accuracy_icon").doubleValue()).isCloseTo(correct[1] / (double) clicks[1], within(1e-12));
        assertThat(json.get("clicks").intValue()).isEqualTo(150);
        assertThat(json.get("text_clicks").intValue()).isEqualTo(clicks[0]);
        assertThat(json.get("icon_clicks").intValue()).isEqualTo(clicks[1]);
    }

    @Test
    void screenSpotWithoutIconsReportsNullAndBadKindIsAnError() throws Exception {
        Run r = run("eval", "screenspot", "--clicks", write("t.jsonl", List.of(
                "{\"id\":\"a\",\"kind\":\"text\",\"bbox\":[0,0,10,10],\"point\":[10,10]}",
                "{\"id\":\"b\",\"kind\":\"text\",\"bbox\":[0,0,10,10],\"point\":[11,10]}")).toString());
        assertThat(r.code()).isZero();
        assertThat(r.json().get("click_accuracy").doubleValue()).isEqualTo(0.5);
        assertThat(r.json().get("click_accuracy_icon").isNull()).isTrue();

        Run bad = run("eval", "screenspot", "--clicks", write("k.jsonl", List.of(
                "{\"id\":\"a\",\"kind\":\"text\",\"bbox\":[0,0,10,10],\"point\":[10,10]}",
                "{\"id\":\"b\",\"kind\":\"button\",\"bbox\":[0,0,10,10],\"point\":[1,1]}")).toString());
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("line 2").contains("text or icon");
    }

    // ---- AITW --------------------------------------------------------------------------------

    private static String aitwLine(String episode, int step, String gold, String pred) {
        return "{\"episode\":\"" + episode + "\",\"step\":" + step + ",\"gold\":" + gold
                + (pred == null ? "" : ",\"pred\":" + pred) + "}";
    }

    @Test
    void aitwActionMatching() throws Exception {
        List<String> lines = List.of(
                // e1: all matched
                aitwLine("e1", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.45,0.45],\"screenBoxes\":[[0.4,0.4,0.1,0.1]]}",
                        "{\"op\":\"DUAL_POINT\",\"point\":[0.35,0.56]}"),            // same grown box, 0.149 apart
                aitwLine("e1", 1, "{\"op\":\"TYPE\",\"value\":\"coffee\"}", "{\"op\":\"TYPE\",\"value\":\"tea\"}"),
                aitwLine("e1", 2, "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.8],\"liftPoint\":[0.5,0.2]}",
                        "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.2],\"liftPoint\":[0.5,0.8]}"), // same axis
                // e2: none matched
                aitwLine("e2", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.1,0.1]}", "{\"op\":\"DUAL_POINT\",\"point\":[0.9,0.9]}"),
                aitwLine("e2", 1, "{\"op\":\"PRESS_BACK\"}", "{\"op\":\"PRESS_HOME\"}"),
                aitwLine("e2", 2, "{\"op\":\"STATUS_TASK_COMPLETE\"}", null),
                // e3: taps 0.1 apart
                aitwLine("e3", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.5]}", "{\"op\":\"DUAL_POINT\",\"point\":[0.6,0.5]}"));
        Run r = run("eval", "aitw", "--steps", write("aitw.jsonl", lines).toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = r.json();
        assertThat(json.get("action_match_accuracy").doubleValue()).isCloseTo(4.0 / 7, within(1e-12));
        assertThat(json.get("step_success_rate").doubleValue()).isCloseTo(4.0 / 7, within(1e-12));
        assertThat(json.get("task_success_rate").doubleValue()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(json.get("episodes").intValue()).isEqualTo(3);
        assertThat(json.get("steps").intValue()).isEqualTo(7);

        Run pixels = run("eval", "aitw", "--steps", write("px.jsonl", List.of(
                aitwLine("e1", 0, "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.5]}", "{\"op\":\"DUAL_POINT\",\"point\":[540,1200]}")))
                .toString());
        assertThat(pixels.code()).isEqualTo(2);
        assertThat(pixels.err()).contains("line 1").contains("normalized");
    }

    @Test
    void aSkippedStepScoresAsTheStreamScoresAnEmptyStep() throws Exception {
        String tap = "{\"op\":\"DUAL_POINT\",\"point\":[0.5,0.5]}";
        String back = "{\"op\":\"PRESS_BACK\"}";
        // step 1 has no prediction: unmatched, and step 2 is still compared with gold step 2
        Run r = run("eval", "aitw", "--steps", write("skip.jsonl", List.of(
                aitwLine("e1", 0, tap, tap), aitwLine("e1", 1, back, null), aitwLine("e1", 2, back, back))).toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().get("action_match_accuracy").doubleValue()).isEqualTo(2.0 / 3);
        assertThat(r.json().get("matched_steps").intValue()).isEqualTo(2);
        assertThat(r.json().get("task_success_rate").doubleValue()).isZero();

        // the same episode as an event and item for the stream: the skipped step is an empty action
        UiAction tapAction = UiAction.newBuilder().setOp("DUAL_POINT").setPoint(List.of(0.5, 0.5)).build();
        UiAction backAction = UiAction.newBuilder().setOp("PRESS_BACK").build();
        GenerationEvent event = EvalSample.event("aitw", "ui", GenerationInputs.newBuilder()
                .setUiActions(List.of(tapAction, UiAction.newBuilder().build(), backAction)).build());
        BenchmarkItem item = EvalSample.item("aitw", GroundTruth.newBuilder()
                .setUiSteps(List.of(tapAction, backAction, backAction)).build());
        Map<String, Object> stream = EvalCommand.print(FamilySample.scorer(AitwEvaluator.ID, AitwEvaluator::new), event, item);
        assertThat(stream.get("status")).isEqualTo("COMPLETE");
        assertThat(stream.get("primary")).isEqualTo(2.0 / 3);

        // an empty object is not a skipped step in the file: it is a prediction without an element or point
        Run empty = run("eval", "mind2web", "--steps", write("empty.jsonl", List.of(
                "{\"episode\":\"e1\",\"step\":0,\"gold\":{\"element\":\"a\",\"op\":\"CLICK\"},\"pred\":{}}")).toString());
        assertThat(empty.code()).isEqualTo(2);
        assertThat(empty.err()).contains("line 1").contains("pred: a predicted step needs an element id or a point");
    }

    // ---- robot -------------------------------------------------------------------------------

    @Test
    void robotSuccessRatesAndProtocolMismatch() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            lines.add(robotLine("libero-spatial", "bowl to plate", i, i % 5 < 3, null)); // 30 of 50
        }
        for (int i = 0; i < 48; i++) {
            lines.add(robotLine("libero-spatial", "bowl to stove", i, true, null)); // 48 of 48, short run
        }
        for (int i = 0; i < 27; i++) {
            lines.add(robotLine("simplerenv-google-robot", "open drawer", i, i < 9, 27)); // 9 of 27
        }
        Collections.shuffle(lines, new Random(3));
        Run r = run("eval", "robot", "--trials", write("robot.jsonl", lines).toString());
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = r.json();
        assertThat(json.get("success_rate").doubleValue()).isCloseTo((30 + 48 + 9) / 125.0, within(1e-12));
        assertThat(json.get("tasks").intValue()).isEqualTo(3);
        assertThat(json.get("trials").intValue()).isEqualTo(125);
        assertThat(json.get("mismatched_tasks").intValue()).isEqualTo(1);
        assertThat(json.get("suites").get("libero-spatial").get("success_rate").doubleValue())
                .isCloseTo(78 / 98.0, within(1e-12));
        assertThat(json.get("suites").get("simplerenv-google-robot").get("success_rate").doubleValue())
                .isCloseTo(1 / 3.0, within(1e-12));
        boolean sawShortRun = false;
        for (JsonNode row : json.get("per_task")) {
            if (row.get("task").asText().equals("bowl to stove")) {
                sawShortRun = true;
                assertThat(row.get("success_rate").doubleValue()).isEqualTo(1.0);
                assertThat(row.get("protocol_trials").intValue()).isEqualTo(50);
                assertThat(row.get("trial_count_mismatch").booleanValue()).isTrue();
            } else {
                assertThat(row.get("trial_count_mismatch").booleanValue()).isFalse();
            }
        }
        assertThat(sawShortRun).isTrue();
    }

    @Test
    void robotGoogleRobotNeedsItsProtocol() throws Exception {
        Run r = run("eval", "robot", "--trials", write("g.jsonl", List.of(
                robotLine("libero-goal", "a", 0, true, null),
                robotLine("simplerenv-google-robot", "pick coke can", 0, true, null))).toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("line 2").contains("protocolTrials");

        Run dup = run("eval", "robot", "--trials", write("d.jsonl", List.of(
                robotLine("libero-goal", "a", 0, true, null),
                robotLine("libero-goal", "a", 0, false, null))).toString());
        assertThat(dup.code()).isEqualTo(2);
        assertThat(dup.err()).contains("line 2").contains("appears twice");
    }

    private static String robotLine(String suite, String task, int trial, boolean success, Integer protocol) {
        ObjectNode line = obj().put("suite", suite).put("task", task).put("trial", trial).put("success", success);
        if (protocol != null) {
            line.put("protocolTrials", protocol);
        }
        return line.toString();
    }
}
