package io.mmgr.stream.tasks.arc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class ArcTaskAndDifficultyTest {

    @TempDir
    Path dir;

    @Test
    void readsTheArcAgiFormat() throws Exception {
        Path f = dir.resolve("abc123.json");
        Files.writeString(f, "{\"train\": [{\"input\": [[1, 0], [0, 1]], \"output\": [[2]]}],"
                + " \"test\": [{\"input\": [[3, 3]], \"output\": [[4], [5]]}, {\"input\": [[6]]}]}");
        ArcTask t = ArcTask.read(f);
        assertThat(t.id()).isEqualTo("abc123");
        assertThat(t.train()).hasSize(1);
        assertThat(t.test(0).output()).isEqualTo(ArcGrid.of(new int[][] {{4}, {5}}));
        assertThat(t.test(1).output()).isNull();
        assertThatThrownBy(() -> t.test(2)).hasMessageContaining("2 test pair(s)");
    }

    @Test
    void badTasksSayWhatIsWrong() throws IOException {
        ObjectMapper m = new ObjectMapper();
        assertThatThrownBy(() -> ArcTask.parse("x", m.readTree("{\"train\": [], \"test\": []}")))
                .hasMessageContaining("no 'train'");
        assertThatThrownBy(() -> ArcTask.parse("x", m.readTree("{\"train\": [{\"input\": [[1, 2], [3]], \"output\": [[1]]}], \"test\": [{\"input\": [[1]]}]}")))
                .hasMessageContaining("train[0].input").hasMessageContaining("row 1");
        assertThatThrownBy(() -> ArcTask.parse("x", m.readTree("{\"train\": [{\"input\": [[10]], \"output\": [[1]]}], \"test\": [{\"input\": [[1]]}]}")))
                .hasMessageContaining("0..9");
        Path missing = dir.resolve("nope.json");
        assertThatThrownBy(() -> ArcTask.read(missing)).hasMessageContaining("nope.json");
    }

    @Test
    void difficultyCountsSizeColoursAndObjects() {
        // background 0; objects: the 1-pair (diagonal, 8-connected), the 2, the two separate 3s -> 4
        ArcGrid input = ArcGrid.of(new int[][] {
            {1, 0, 0, 3},
            {0, 1, 0, 0},
            {0, 0, 2, 0},
            {3, 0, 0, 0}});
        ArcGrid output = ArcGrid.of(new int[][] {{4, 5}, {6, 7}});
        ArcDifficulty d = ArcDifficulty.of(new ArcTask.Pair(input, output));
        assertThat(d.size()).isEqualTo(16);
        assertThat(d.colours()).isEqualTo(8);
        assertThat(d.objects()).isEqualTo(4);
        assertThat(d.points()).isEqualTo(0 + 2 + 1);
        assertThat(d.band()).isEqualTo("medium");

        int[][] big = new int[21][21];
        for (int r = 0; r < 21; r += 2) {
            for (int c = 0; c < 21; c += 2) {
                big[r][c] = 1 + (r + c) % 9;
            }
        }
        ArcDifficulty hard = ArcDifficulty.of(new ArcTask.Pair(ArcGrid.of(big), ArcGrid.of(new int[][] {{0}})));
        assertThat(hard.size()).isEqualTo(441);
        assertThat(hard.objects()).isEqualTo(121);
        assertThat(hard.band()).isEqualTo("hard");
        assertThat(ArcDifficulty.of(new ArcTask.Pair(ArcGrid.of(new int[][] {{0, 1}}), ArcGrid.of(new int[][] {{1}}))).band())
                .isEqualTo("easy");
    }
}
