package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class EvalFidCommandTest {

    @TempDir
    Path dir;

    private String[] run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true));
        System.setErr(new PrintStream(e, true));
        try {
            int code = Main.commandLine().execute(args);
            return new String[] {o.toString(), e.toString(), Integer.toString(code)};
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void frechetDistanceOfTwoFeatureSets() throws Exception {
        // generated: mean (0, 0), covariance (2/3) I; reference: the same cloud moved by (3, 4) -> FID = 25
        Path gen = dir.resolve("gen.jsonl");
        Files.writeString(gen, "[1, 0]\n[-1, 0]\n[0, 1]\n[0, -1]\n");
        Path ref = dir.resolve("ref.jsonl");
        Files.writeString(ref, String.join("\n",
                "{\"inputs\": {\"features\": {\"i3d\": [4, 4]}}}",
                "{\"inputs\": {\"features\": {\"i3d\": [2, 4]}}}",
                "{\"inputs\": {\"features\": {\"i3d\": [3, 5]}}}",
                "{\"inputs\": {\"features\": {\"i3d\": [3, 3]}}}") + "\n");
        String[] r = run("eval", "fid", "--generated", gen.toString(), "--reference", ref.toString(),
                "--feature", "i3d", "--metric", "fvd", "--d-min", "5", "--d-max", "45");
        JsonNode json = new ObjectMapper().readTree(r[0]);
        assertThat(json.get("fvd").asDouble()).isCloseTo(25.0, within(1e-9));
        assertThat(json.get("fvd_normalized").asDouble()).isCloseTo(0.5, within(1e-9));
        assertThat(json.get("n_generated").asInt()).isEqualTo(4);
        assertThat(json.get("dims").asInt()).isEqualTo(2);
        assertThat(json.get("lower_is_better").asBoolean()).isTrue();
    }

    @Test
    void mismatchedDimensionsAreRefused() throws Exception {
        Path gen = dir.resolve("gen.jsonl");
        Files.writeString(gen, "[1, 0]\n[-1, 0]\n");
        Path ref = dir.resolve("ref.jsonl");
        Files.writeString(ref, "[1, 0, 2]\n[-1, 0, 2]\n");
        String[] r = run("eval", "fid", "--generated", gen.toString(), "--reference", ref.toString());
        assertThat(r[2]).isEqualTo("2");
        assertThat(r[1]).contains("2 values").contains("3");
    }
}
