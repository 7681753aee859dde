package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code mmgr eval arc}'s case: {@code task} (an ARC-AGI task file), {@code test_index} (default 0),
 * {@code output} (image, or video whose last frame is read) and optional {@code answer_region}
 * ([x, y, width, height] of the answer when the output shows the whole puzzle). The test pair's output
 * grid becomes the item's ground truth.
 */
final class ArcEvalCase {

    private ArcEvalCase() {
    }

    static EvalSample sample(EvalCase c) throws EvaluationException, IOException {
        Path taskFile = c.path("task");
        int testIndex = c.integer("test_index", 0);
        Path output = c.path("output");
        List<Integer> region = c.integers("answer_region");
        ArcTask.Pair pair = ArcTask.read(taskFile).test(testIndex);
        if (pair.output() == null) {
            throw new IllegalArgumentException(taskFile + ": test pair " + testIndex + " has no output to compare with");
        }
        if (!Files.isRegularFile(output)) {
            throw new IllegalArgumentException(output + ": output not found");
        }
        GroundTruth.Builder gt = new ArcTruth(pair.output().toLists(), region).into(GroundTruth.newBuilder());
        if (region != null) {
            if (region.size() != 4) {
                throw new IllegalArgumentException("--answer-region needs x,y,width,height");
            }
            if (EvalSample.mediaType(output).startsWith("image/")) {
                // the region is given in the output's own pixels
                try {
                    int[] size = ImageDecoder.declaredSize(Files.readAllBytes(output));
                    gt.setExtra(Map.of("canvasWidth", Integer.toString(size[0]), "canvasHeight", Integer.toString(size[1])));
                } catch (MediaException e) {
                    throw new EvaluationException("ARC output image: " + e.getMessage(), e);
                }
            }
        }
        return new EvalSample(EvalSample.event(ArcMetrics.TASK, EvalSample.CLI, output),
                EvalSample.item(ArcMetrics.TASK, gt.build()));
    }
}
