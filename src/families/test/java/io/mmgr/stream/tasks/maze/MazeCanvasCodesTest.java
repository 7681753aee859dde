package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.FrameBudget;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.Mask;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import io.mmgr.stream.vision.VideoEncoder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A maze read from colour codes (what {@code eval maze} and the stream decode to) is the maze read
 * from the RGB image they come from: same board, same wall, marker and path masks, same video
 * metrics, on every render style of the corpus, right and faulty answers.
 */
@Tag("unit")
class MazeCanvasCodesTest {

    @Test
    void everyImageStyleReadsTheSameFromCodes() throws Exception {
        for (OutputStyle style : MazeStyles.IMAGE) {
            for (MazeAnswerCorpus.Case c : MazeAnswerCorpus.images(style, 2, 41)) {
                MazeProblem p = c.problem();
                String what = c.id();
                assertSameCanvas(what, MazeCanvas.of(c.image(), p.rows(), p.cols()),
                        MazeCanvas.of(inReusedBuffer(c.image()), p.rows(), p.cols()));
                assertThat(MazeCanvas.of(c.reference(false), p.rows(), p.cols()).found()).as(what).isTrue();
                assertSameCanvas(what + " problem", MazeCanvas.of(c.reference(false), p.rows(), p.cols()),
                        MazeCanvas.of(inReusedBuffer(c.reference(false)), p.rows(), p.cols()));
                assertSameCanvas(what + " solution", MazeCanvas.ofSolution(c.reference(true), p.rows(), p.cols()),
                        MazeCanvas.ofSolution(inReusedBuffer(c.reference(true)), p.rows(), p.cols()));
            }
        }
    }

    @Test
    void decodedToCodesScoresAsDecodedToRgb() throws Exception {
        for (OutputStyle style : MazeStyles.IMAGE) {
            MazeAnswerCorpus.Case c = MazeAnswerCorpus.images(style, 1, 43).get(0);
            MazeProblem p = c.problem();
            MazeReference ref = MazeReference.build(null, null, MazeCanvas.of(c.reference(false), p.rows(), p.cols()),
                    MazeCanvas.ofSolution(c.reference(true), p.rows(), p.cols()), p.rows(), p.cols());
            byte[] bytes = c.imageBytes();
            MazeMetrics fromRgb = MazeImageScorer.score(ref,
                    MazeCanvas.of(ImageDecoder.decode(bytes, ImageDecoder.Limits.DEFAULT), p.rows(), p.cols()));
            LabelImage codes = ImageDecoder.decodeCodes(bytes, ImageDecoder.Limits.DEFAULT, MazePalette.lut(),
                    MazeCanvas::codeBuffer);
            assertThat(MazeImageScorer.score(ref, MazeCanvas.of(codes, p.rows(), p.cols()))).as(c.id()).isEqualTo(fromRgb);
        }
    }

    @Test
    void everyVideoStyleScoresTheSameFromCodes(@TempDir Path dir) throws Exception {
        for (OutputStyle style : MazeStyles.VIDEO) {
            for (MazeAnswerCorpus.Case c : MazeAnswerCorpus.videos(style, 2, 47)) {
                MazeProblem p = c.problem();
                MazeReference ref = MazeReference.build(null, null, MazeCanvas.of(c.reference(false), p.rows(), p.cols()),
                        MazeCanvas.ofSolution(c.reference(true), p.rows(), p.cols()), p.rows(), p.cols());
                Path file = dir.resolve(c.id() + ".mp4");
                c.writeVideo(file, VideoEncoder.Container.MP4);
                MazeVideoScorer fromRgb = new MazeVideoScorer(ref);
                VideoDecoder.sample(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT, (i, f) -> fromRgb.accept(f));
                MazeVideoScorer fromCodes = new MazeVideoScorer(ref);
                int frames = VideoDecoder.sampleCodes(file, FrameBudget.WAN, VideoDecoder.Limits.DEFAULT, MazePalette.lut(),
                        MazeCanvas::codeBuffer, (i, f) -> fromCodes.accept(f));
                assertThat(frames).isGreaterThan(1);
                assertThat(fromCodes.finish()).as(c.id()).isEqualTo(fromRgb.finish());
                assertThat(fromCodes.route()).as(c.id()).isEqualTo(fromRgb.route());
            }
        }
    }

    /** The image's codes at the start of a longer buffer holding other codes past it, as a reused one does. */
    private static LabelImage inReusedBuffer(RgbImage image) {
        byte[] codes = MazePalette.lut().label(image).codes();
        byte[] buffer = Arrays.copyOf(codes, codes.length + 4096);
        Random random = new Random(codes.length);
        for (int i = codes.length; i < buffer.length; i++) {
            buffer[i] = (byte) random.nextInt(MazePalette.CODES);
        }
        return new LabelImage(image.width(), image.height(), buffer, null);
    }

    /** Same board and masks (also for the other canvas tests of this package). */
    static void assertSameCanvas(String what, MazeCanvas rgb, MazeCanvas codes) {
        assertThat(codes.found()).as(what + " found").isEqualTo(rgb.found());
        assertThat(codes.geometry()).as(what + " board").isEqualTo(rgb.geometry());
        assertSameMask(what + " walls", rgb.walls(), codes.walls());
        assertSameMask(what + " start", rgb.start(), codes.start());
        assertSameMask(what + " target", rgb.target(), codes.target());
        assertSameMask(what + " path", rgb.path(), codes.path());
    }

    static void assertSameMask(String what, Mask a, Mask b) {
        assertThat(b.width()).as(what).isEqualTo(a.width());
        assertThat(b.height()).as(what).isEqualTo(a.height());
        int differ = 0;
        for (int i = 0; i < a.width() * a.height(); i++) {
            if (a.get(i) != b.get(i)) {
                differ++;
            }
        }
        assertThat(differ).as(what + " pixels differing").isZero();
        assertThat(b.count()).as(what).isEqualTo(a.count());
    }
}
