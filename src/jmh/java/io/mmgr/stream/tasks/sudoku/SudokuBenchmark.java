package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sudoku OCR pipeline, ms per answer: a solved 9x9 as a 512x512 PNG and JPEG (decode + grid + 81 OCR
 * readings) and a 96-frame 512x512 H.264 video that fills the 9x9's blanks one by one (decode + per-frame
 * grid check and cell fingerprints + OCR of the cells that changed). One OCR engine, as one stream thread has.
 *
 * <p>{@code mvn -P jmh -DskipTests test-compile exec:exec -Djmh.args="SudokuBenchmark -f 1 -wi 3 -i 5"}
 */
@State(Scope.Benchmark)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class SudokuBenchmark {

    SudokuPuzzle puzzle;
    DigitOcr ocr;
    byte[] png;
    byte[] jpeg;
    RgbImage decoded;
    Path video;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        puzzle = SudokuGenerator.generate(9, SudokuBand.MEDIUM, new Random(2026));
        OutputLook look = new OutputLook("bench-512", SudokuStyle.standard(512), null, 0, 0);
        RgbImage solved = look.render(9, puzzle.solution(), SudokuRenderer.clueMask(puzzle), null);
        png = look.encode(solved);
        jpeg = ImageEncoder.jpeg(solved, 85);
        decoded = ImageDecoder.decode(png, ImageDecoder.Limits.DEFAULT);
        // the puzzle for 4 frames, then one blank filled every other frame, the rest held: 96 frames
        VideoScript gradual = VideoScript.gradual("bench", puzzle, 4, 1, 2, 0, new Random(7));
        List<int[]> frames = new ArrayList<>(gradual.frames());
        while (frames.size() < 96) {
            frames.add(frames.get(frames.size() - 1));
        }
        video = Files.createTempFile("sudoku-bench", ".mp4");
        new VideoScript("bench", puzzle, frames.subList(0, 96), gradual.clue()).write(look, video);
        ocr = DigitOcr.open();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        ocr.close();
        Files.deleteIfExists(video);
    }

    @Benchmark
    public SudokuScore image9x9AnalysisOnly() throws Exception {
        return SudokuImageScorer.score(puzzle, decoded, ocr);
    }

    @Benchmark
    public SudokuScore image9x9Png() throws Exception {
        return SudokuImageScorer.score(puzzle, ImageDecoder.decode(png, ImageDecoder.Limits.DEFAULT), ocr);
    }

    @Benchmark
    public SudokuScore image9x9Jpeg() throws Exception {
        return SudokuImageScorer.score(puzzle, ImageDecoder.decode(jpeg, ImageDecoder.Limits.DEFAULT), ocr);
    }

    @Benchmark
    public SudokuScore video96Frames() throws Exception {
        SudokuVideoScorer scorer = new SudokuVideoScorer(puzzle, ocr);
        VideoDecoder.sample(video, 192, VideoDecoder.Limits.DEFAULT, scorer::accept);
        return scorer.finish();
    }
}
