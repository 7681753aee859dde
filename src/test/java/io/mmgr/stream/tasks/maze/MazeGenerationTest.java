package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.json.JsonAvro;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Tag("unit")
class MazeGenerationTest {

    @ParameterizedTest
    @EnumSource(MazeAlgorithm.class)
    void everySizeIsAPerfectMaze(MazeAlgorithm algorithm) {
        Random random = new Random(42);
        for (int rows = 3; rows <= 13; rows++) {
            for (int cols = 3; cols <= 13; cols += 5) {
                MazeLattice m = algorithm.generate(rows, cols, random);
                assertThat(m.isPerfect()).as("%s %dx%d", algorithm, rows, cols).isTrue();
                // the lattice survives its own text form (and its rules)
                assertThat(MazeLattice.parse(m.toStrings(), rows, cols)).isEqualTo(m);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Placement.class)
    void placementsGiveDistinctEndsAndTheUniqueRoute(Placement placement) {
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            MazeProblem p = MazeProblem.generate(3 + i % 11, 3 + (i * 3) % 11, MazeAlgorithm.values()[i % 2], placement, random);
            assertThat(p.start()).isNotEqualTo(p.target());
            // in a spanning tree the BFS route is the only simple route; it is as long as BFS distance
            assertThat(p.solution().size() - 1).isEqualTo(p.lattice().distancesFrom(p.start())[p.target().row()][p.target().col()]);
            switch (placement) {
                case CORNERS -> assertThat(List.of(p.start(), p.target()))
                        .containsExactly(new Cell(0, 0), new Cell(p.rows() - 1, p.cols() - 1));
                case DEAD_ENDS -> assertThat(p.lattice().deadEnds()).contains(p.start(), p.target());
                case FARTHEST -> {
                    int[][] d = p.lattice().distancesFrom(p.start());
                    int max = 0;
                    for (int[] row : d) {
                        for (int v : row) {
                            max = Math.max(max, v);
                        }
                    }
                    assertThat(p.solution().size() - 1).isEqualTo(max);
                }
                default -> { }
            }
        }
    }

    @Test
    void latticeRulesAreEnforced() {
        List<String> ok = List.of("#####", "#...#", "#####");
        assertThat(MazeLattice.parse(ok, 1, 2).connected(new Cell(0, 0), new Cell(0, 1))).isTrue();
        assertThatThrownBy(() -> MazeLattice.parse(List.of("#####", "#.#.#", "##.##"), 1, 2))
                .hasMessageContaining("must be a wall");
        assertThatThrownBy(() -> MazeLattice.parse(List.of("###", "#.#"), 1, 1)).hasMessageContaining("3 lines");
    }

    @Test
    void bandsCoverThreeToThirteen() {
        assertThat(MazeBand.of(3, 5)).isEqualTo(MazeBand.EASY);
        assertThat(MazeBand.of(6, 9)).isEqualTo(MazeBand.MEDIUM);
        assertThat(MazeBand.of(13, 10)).isEqualTo(MazeBand.HARD);
        assertThatThrownBy(() -> MazeBand.of(14, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void generatorWritesImagesLatticeAndItems(@TempDir Path dir) throws Exception {
        MazeBenchmarkGenerator.Result r = MazeBenchmarkGenerator.generate(dir, 9, List.of(MazeBand.values()), 5);
        List<String> lines = Files.readAllLines(r.itemsFile());
        assertThat(lines).hasSize(9);
        ObjectMapper mapper = new ObjectMapper();
        Set<String> bands = new HashSet<>();
        Set<String> algorithms = new HashSet<>();
        for (String line : lines) {
            JsonNode item = mapper.readTree(line);
            assertThat(item.get("task").asText()).isEqualTo("maze");
            JsonNode gt = item.get("groundTruth");
            // the maze's own ground truth is its payload; the shared fields stay empty
            assertThat(gt.get("family").asText()).isEqualTo("maze");
            assertThat(gt.get("mazeLattice").isNull()).isTrue();
            MazeTruth truth = MazeTruth.of(JsonAvro.read(line, BenchmarkItem.class).getGroundTruth());
            int rows = truth.rows();
            int cols = truth.cols();
            MazeBand band = MazeBand.valueOf(item.get("difficulty").asText().toUpperCase());
            assertThat(band.contains(rows, cols)).isTrue();
            bands.add(band.id());
            algorithms.add(gt.get("extra").get("algorithm").asText());
            MazeLattice m = MazeLattice.parse(truth.lattice(), rows, cols);
            assertThat(m.isPerfect()).isTrue();
            List<List<Integer>> path = truth.solutionPath();
            Cell start = new Cell(path.get(0).get(0), path.get(0).get(1));
            Cell target = new Cell(path.get(path.size() - 1).get(0), path.get(path.size() - 1).get(1));
            assertThat(m.shortestPath(start, target)).hasSize(path.size());
            for (JsonNode a : item.get("artifacts")) {
                Path file = Path.of(java.net.URI.create(a.get("uri").asText()));
                assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))))
                        .isEqualTo(a.get("sha256").asText());
            }
            assertThat(item.get("artifacts").findValuesAsText("role")).contains("problem", "solution");
        }
        assertThat(bands).containsExactlyInAnyOrder("easy", "medium", "hard");
        assertThat(algorithms).containsExactlyInAnyOrder("dfs", "wilson");
        // the same seed gives the same problems
        Path again = Files.createDirectories(dir.resolve("again"));
        List<BenchmarkItem> second = MazeBenchmarkGenerator.generate(again, 9, List.of(MazeBand.values()), 5).items();
        assertThat(MazeTruth.of(second.get(4).getGroundTruth()).lattice()).isEqualTo(MazeTruth.of(r.items().get(4).getGroundTruth()).lattice());
    }
}
