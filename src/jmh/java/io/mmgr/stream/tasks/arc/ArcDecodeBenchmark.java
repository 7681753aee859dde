package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.RgbImage;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ARC grid decoding throughput (images/s) on a real task's answer: a 30x30 grid drawn at 20 px cells
 * with lines (about 650x650 px, JPEG) and without lines (PNG), decode included or not; and a whole
 * puzzle canvas read through its answer region.
 * mvn -P jmh -DskipTests test-compile exec:exec -Djmh.args="ArcDecodeBenchmark -f 1 -wi 2 -i 3"
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ArcDecodeBenchmark {

    @Param({"lines-jpeg", "no-lines-png"})
    public String style;

    int[] expected;
    byte[] encoded;
    RgbImage decoded;
    ArcRenderer.Puzzle puzzle;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ArcTask task = ArcFixtures.tasks().stream()
                .filter(t -> t.test(0).output().rows() == 30 && t.test(0).output().cols() == 30)
                .findFirst().orElseThrow();
        int[][] grid = task.test(0).output().toArray();
        expected = new int[] {30, 30};
        OutputStyle s = style.equals("lines-jpeg")
                ? new OutputStyle("bench-lines", new ArcStyle(20, 1, 0x555555, true, 16, 0xFFFFFF, ArcPalette.CLASSIC),
                        1, 1, 0, 0, 1, 90)
                : new OutputStyle("bench-plain", new ArcStyle(20, 0, 0, false, 16, 0xFFFFFF, ArcPalette.CLASSIC),
                        1, 1, 0, 0, 1, 0);
        encoded = s.encode(s.raster(grid));
        decoded = ImageDecoder.decode(encoded, ImageDecoder.Limits.DEFAULT);
        puzzle = ArcRenderer.puzzle(task, 0, true);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public ArcGridDecoder.Decoded gridOnly() throws Exception {
        return ArcGridDecoder.decode(decoded, null, expected);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public ArcGridDecoder.Decoded fileDecodeAndGrid() throws Exception {
        return ArcGridDecoder.decode(ImageDecoder.decode(encoded, ImageDecoder.Limits.DEFAULT), null, expected);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public ArcGridDecoder.Decoded puzzleAnswerRegion() throws Exception {
        return ArcGridDecoder.decode(puzzle.image(), puzzle.answerRegion(), expected);
    }
}
