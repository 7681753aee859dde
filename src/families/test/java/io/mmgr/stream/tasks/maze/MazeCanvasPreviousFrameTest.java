package io.mmgr.stream.tasks.maze;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.vision.LabelImage;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A video frame lends its walls to the next one only while no wall pixel changed: frames that only grow
 * the path read the previous frame's walls, a frame with wall pixels erased reads them again, and every
 * frame's masks (its histogram and coloured pixels taken from the changed pixels) are those it would
 * read alone, on every image style of the corpus.
 */
@Tag("unit")
class MazeCanvasPreviousFrameTest {

    @Test
    void wallsAreReusedExactlyWhileTheWallPixelsStayTheSame() throws Exception {
        for (OutputStyle style : MazeStyles.IMAGE) {
            MazeAnswerCorpus.Case c = MazeAnswerCorpus.images(style, 1, 53).get(0);
            MazeProblem p = c.problem();
            int w = c.image().width();
            int h = c.image().height();
            byte[] first = MazePalette.lut().label(c.image()).codes().clone();
            int[] histogram = new int[MazePalette.CODES];
            for (int i = 0; i < w * h; i++) {
                histogram[first[i]]++;
            }
            int paper = MazePalette.paper(histogram);
            byte[] classes = MazePalette.classes(paper);
            Random random = new Random(style.name().hashCode());

            // the path grows over the paper
            byte[] grown = first.clone();
            for (int k = 0; k < 400; k++) {
                int i = random.nextInt(w * h);
                if (classes[grown[i]] != MazePalette.WALL) {
                    grown[i] = (byte) MazePalette.CODE_PATH;
                }
            }
            // then a stretch of one wall is erased
            byte[] erased = grown.clone();
            int gone = 0;
            int from = random.nextInt(w * h);
            for (int k = 0; gone < 40 && k < w * h; k++) {
                int i = (from + k) % (w * h);
                if (classes[erased[i]] == MazePalette.WALL) {
                    erased[i] = (byte) paper;
                    gone++;
                }
            }
            assertThat(gone).as(style + ": wall pixels erased").isPositive();

            // one reused buffer, as the video decoder hands its frames over
            byte[] buffer = new byte[w * h + 64];
            MazeCanvas.PreviousFrame previous = new MazeCanvas.PreviousFrame();
            MazeCanvas a = frame(buffer, first, w, h, p, null, previous);
            assertThat(a.found()).as(style + " found").isTrue();
            MazeCanvas b = frame(buffer, grown, w, h, p, a.geometry(), previous);
            MazeCanvas d = frame(buffer, erased, w, h, p, b.geometry(), previous);

            assertThat(b.geometry()).as(style + ": the board stays put").isSameAs(a.geometry());
            assertThat(b.walls()).as(style + ": only the path changed").isSameAs(a.walls());
            assertThat(d.walls()).as(style + ": a wall pixel changed").isNotSameAs(b.walls());
            // and every mask is the one the frame reads alone (markers and path come from the changed pixels)
            MazeCanvasCodesTest.assertSameCanvas(style + " grown", frame(buffer, grown, w, h, p, a.geometry(), null), b);
            MazeCanvasCodesTest.assertSameCanvas(style + " erased", frame(buffer, erased, w, h, p, a.geometry(), null), d);
        }
    }

    private static MazeCanvas frame(byte[] buffer, byte[] codes, int w, int h, MazeProblem p, MazeGeometry hint,
                                    MazeCanvas.PreviousFrame previous) {
        System.arraycopy(codes, 0, buffer, 0, w * h);
        return MazeCanvas.of(new LabelImage(w, h, buffer, null), p.rows(), p.cols(), hint, previous);
    }
}
