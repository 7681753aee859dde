package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.tasks.FrameBudget;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.annotations.Measurement;

/**
 * Maze pixel pipeline throughput: 512x512 image outputs (images/s; with and without PNG/JPEG decoding,
 * decoded to RGB or, as the evaluator does, to colour codes) and a 96-frame 512x512 H.264 video
 * (s/video, decode + per-frame analysis, frames as RGB or as codes). The reference is built
 * once, as the evaluator caches it per item.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class MazeBenchmark {

    @Param({"HARD"})
    public String band;

    MazeReference ref;
    MazeProblem problem;
    byte[] png;
    byte[] jpeg;
    RgbImage decoded;
    Path video;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        Scenario sc = MazeFixtures.scenario(MazeBand.valueOf(band), Fault.DETOUR, 3);
        problem = sc.problem();
        ref = MazeImageScoringTest.referenceFromImages(problem);
        OutputStyle style = OutputStyle.blocks("bench", 512, 512, 0.03, 0.5, 0.8);
        RgbImage img = OutputRenderer.image(sc, style);
        png = ImageEncoder.png(img);
        jpeg = ImageEncoder.jpeg(img, 85);
        decoded = ImageDecoder.decode(png, ImageDecoder.Limits.DEFAULT);
        video = Files.createTempFile("maze-bench", ".mp4");
        OutputRenderer.video(sc, style, 96, VideoEncoder.Container.MP4, video);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public MazeMetrics imageAnalysisOnly() throws Exception {
        return MazeImageScorer.score(ref, MazeCanvas.of(decoded, problem.rows(), problem.cols()));
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public MazeMetrics imagePngDecodeAndScore() throws Exception {
        RgbImage img = ImageDecoder.decode(png, ImageDecoder.Limits.DEFAULT);
        return MazeImageScorer.score(ref, MazeCanvas.of(img, problem.rows(), problem.cols()));
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public MazeMetrics imageJpegDecodeAndScore() throws Exception {
        RgbImage img = ImageDecoder.decode(jpeg, ImageDecoder.Limits.DEFAULT);
        return MazeImageScorer.score(ref, MazeCanvas.of(img, problem.rows(), problem.cols()));
    }

    /** As the evaluator decodes: straight to colour codes in the thread's buffer. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public MazeMetrics imagePngCodesAndScore() throws Exception {
        LabelImage codes = ImageDecoder.decodeCodes(png, ImageDecoder.Limits.DEFAULT, MazePalette.lut(), MazeCanvas::codeBuffer);
        return MazeImageScorer.score(ref, MazeCanvas.of(codes, problem.rows(), problem.cols()));
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public MazeMetrics imageJpegCodesAndScore() throws Exception {
        LabelImage codes = ImageDecoder.decodeCodes(jpeg, ImageDecoder.Limits.DEFAULT, MazePalette.lut(), MazeCanvas::codeBuffer);
        return MazeImageScorer.score(ref, MazeCanvas.of(codes, problem.rows(), problem.cols()));
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1, time = 3)
    @Measurement(iterations = 3, time = 4)
    public MazeMetrics video96FramesCodes() throws Exception {
        MazeVideoScorer scorer = new MazeVideoScorer(ref);
        VideoDecoder.sampleCodes(video, FrameBudget.VEO, VideoDecoder.Limits.DEFAULT, MazePalette.lut(),
                MazeCanvas::codeBuffer, (i, f) -> scorer.accept(f));
        return scorer.finish();
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 1, time = 3)
    @Measurement(iterations = 3, time = 4)
    public MazeMetrics video96Frames() throws Exception {
        MazeVideoScorer scorer = new MazeVideoScorer(ref);
        VideoDecoder.sample(video, FrameBudget.VEO, VideoDecoder.Limits.DEFAULT,
                (i, f) -> scorer.accept(MazeCanvas.of(f, problem.rows(), problem.cols())));
        return scorer.finish();
    }
}
