package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.artifacts.Digests;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Generated puzzles: valid, within their band, and with exactly one solution (by a separate brute-force count). */
@Tag("unit")
class SudokuGeneratorTest {

    @ParameterizedTest
    @EnumSource(SudokuBand.class)
    void puzzlesOfEveryBandHaveExactlyOneSolution(SudokuBand band) {
        Random random = new Random(band.ordinal());
        for (int size : new int[] {4, 9}) {
            for (int k = 0; k < 4; k++) {
                SudokuPuzzle p = SudokuGenerator.generate(size, band, random);
                assertThat(p.givenCount()).isBetween(band.minGivens(size), band.maxGivens(size));
                assertThat(NaiveCount.solutions(p.givens(), size, 2)).isEqualTo(1);
            }
        }
    }

    @Test
    void theItemsFileReadsBackAsTheItemsThePublisherSends(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        var result = SudokuBenchmarkGenerator.generate(dir, 6, java.util.List.of(4, 9),
                java.util.Arrays.asList(SudokuBand.values()), 3);
        var lines = java.nio.file.Files.readAllLines(result.itemsFile());
        assertThat(lines).hasSize(6);
        for (int i = 0; i < 6; i++) {
            var item = io.mmgr.stream.json.JsonAvro.read(lines.get(i), io.mmgr.stream.avro.BenchmarkItem.class);
            assertThat(item).isEqualTo(result.items().get(i));
            SudokuPuzzle p = SudokuOcrEvaluator.puzzle(item);
            assertThat(p.size()).isEqualTo(i % 2 == 0 ? 4 : 9);
            SudokuBand band = SudokuBand.parse(item.getDifficulty());
            assertThat(band).isEqualTo(SudokuBand.values()[(i / 2) % 3]);
            assertThat(p.givenCount()).isBetween(band.minGivens(p.size()), band.maxGivens(p.size()));
            for (String role : new String[] {"problem", "solution"}) {
                var ref = item.getArtifacts().stream().filter(a -> a.getRole().equals(role)).findFirst().orElseThrow();
                byte[] bytes = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(java.net.URI.create(ref.getUri())));
                assertThat(io.mmgr.stream.artifacts.Digests.sha256(bytes)).isEqualTo(ref.getSha256());
            }
        }
    }

    @Test
    void theSameSeedGivesTheSamePuzzles() {
        SudokuPuzzle a = SudokuGenerator.generate(9, SudokuBand.HARD, new Random(11));
        SudokuPuzzle b = SudokuGenerator.generate(9, SudokuBand.HARD, new Random(11));
        SudokuPuzzle c = SudokuGenerator.generate(9, SudokuBand.HARD, new Random(12));
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void theUniquenessCheckSeesASecondSolution() {
        // a "deadly rectangle" erased: 1 and 3 at rows 1-2, columns 1 and 3 can trade places
        SudokuPuzzle ambiguous = SudokuPuzzle.parse(4, ".2.4.4.221434321", "1234341221434321");
        assertThat(NaiveCount.solutions(ambiguous.givens(), 4, 3)).isEqualTo(2);
        assertThat(SudokuGenerator.hasUniqueSolution(ambiguous)).isFalse();
        assertThat(SudokuGenerator.hasUniqueSolution(SudokuPuzzle.parse(4, "1..4.4..2..3...1", "1234341221434321"))).isTrue();
    }

    /** Plain cell-by-cell backtracking in row-major order: slow but obviously right. */
    static final class NaiveCount {
        static int solutions(int[] grid, int n, int limit) {
            return count(grid.clone(), n, 0, limit);
        }

        private static int count(int[] g, int n, int cell, int limit) {
            while (cell < g.length && g[cell] != 0) {
                cell++;
            }
            if (cell == g.length) {
                return 1;
            }
            int found = 0;
            for (int d = 1; d <= n && found < limit; d++) {
                if (allowed(g, n, cell, d)) {
                    g[cell] = d;
                    found += count(g, n, cell + 1, limit - found);
                    g[cell] = 0;
                }
            }
            return found;
        }

        private static boolean allowed(int[] g, int n, int cell, int d) {
            int box = (int) Math.round(Math.sqrt(n));
            int r = cell / n;
            int c = cell % n;
            for (int k = 0; k < n; k++) {
                if (g[r * n + k] == d || g[k * n + c] == d) {
                    return false;
                }
            }
            for (int y = r / box * box; y < r / box * box + box; y++) {
                for (int x = c / box * box; x < c / box * box + box; x++) {
                    if (g[y * n + x] == d) {
                        return false;
                    }
                }
            }
            return true;
        }
    }
}
