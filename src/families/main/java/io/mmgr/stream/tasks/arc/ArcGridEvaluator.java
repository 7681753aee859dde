package io.mmgr.stream.tasks.arc;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.MediaKind;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.Rect;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code arc-grid} part: reads the answer grid from the output image (or a video's last frame)
 * and compares it cell by cell with the benchmark item's {@code groundTruth.grid}. When the item has an
 * {@code answerRegion} and the output has the puzzle canvas's shape, only that region is read (the
 * model redrew the whole puzzle); otherwise the whole output is the answer. The decoded grid is in
 * the diagnostics.
 */
public final class ArcGridEvaluator implements DeterministicEvaluator {

    public static final String ID = ArcMetrics.GRID_EVALUATOR;

    private final ImageDecoder.Limits imageLimits;
    private final VideoDecoder.Limits videoLimits;

    public ArcGridEvaluator() {
        this(ImageDecoder.Limits.DEFAULT, VideoDecoder.Limits.DEFAULT);
    }

    public ArcGridEvaluator(ImageDecoder.Limits imageLimits, VideoDecoder.Limits videoLimits) {
        this.imageLimits = imageLimits;
        this.videoLimits = videoLimits;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        return ArtifactResolver.find(event.getArtifacts(), "output")
                .map(out -> MediaKind.of(out).costClass()).orElse(CostClass.IMAGE);
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        Optional<ArtifactRef> out = ArtifactResolver.find(event.getArtifacts(), "output");
        if (out.isEmpty()) {
            return Optional.of("ARC generation has no artifact with role 'output'");
        }
        if (!MediaKind.of(out.get()).isMedia()) {
            return Optional.of("ARC output must be an image or a video, got media type '" + out.get().getMediaType() + "'");
        }
        try {
            truth(item);
            region(item);
        } catch (EvaluationException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        ArtifactRef out = ArtifactResolver.find(context.event().getArtifacts(), "output")
                .orElseThrow(() -> new EvaluationException("ARC generation has no artifact with role 'output'"));
        ArcGrid truth = truth(context.item());
        RgbImage image;
        int declaredWidth;
        int declaredHeight;
        Map<String, String> diagnostics = new LinkedHashMap<>();
        if (MediaKind.of(out).isVideo()) {
            RgbImage[] last = new RgbImage[1];
            int[] size = new int[2];
            try {
                var probe = VideoDecoder.probe(context.artifacts().file(out));
                size[0] = probe.width();
                size[1] = probe.height();
                VideoDecoder.sample(context.artifacts().file(out), ArcThresholds.VIDEO_FRAMES, videoLimits,
                        (i, f) -> last[0] = f);
            } catch (MediaException e) {
                throw new EvaluationException("ARC output video: " + e.getMessage(), e);
            }
            image = last[0];
            declaredWidth = size[0];
            declaredHeight = size[1];
            diagnostics.put("modality", "video (last frame)");
        } else {
            byte[] bytes = context.artifacts().read(out);
            try {
                int[] size = ImageDecoder.declaredSize(bytes);
                declaredWidth = size[0];
                declaredHeight = size[1];
                image = ImageDecoder.decode(bytes, imageLimits);
            } catch (MediaException e) {
                throw new EvaluationException("ARC output image: " + e.getMessage(), e);
            }
            diagnostics.put("modality", "image");
        }
        Rect region = answerRegion(context.item(), image, declaredWidth, declaredHeight);
        diagnostics.put("region", region == null ? "whole output" : region.toString());
        return score(image, region, truth, diagnostics);
    }

    /**
     * Reads the grid from the image (or its region) and compares it with the truth. A picture without a
     * readable grid is an answer without the right grid, not a broken sample: metrics 0, diagnostics say why.
     */
    static EvaluationOutcome score(RgbImage image, Rect region, ArcGrid truth, Map<String, String> diagnostics) {
        ArcGridDecoder.Decoded decoded;
        try {
            decoded = ArcGridDecoder.decode(image, region, new int[] {truth.rows(), truth.cols()});
        } catch (ArcDecodeException e) {
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put(ArcMetrics.GRID_INTEGRITY, 0.0);
            metrics.put(ArcMetrics.CELL_ACCURACY, null);
            metrics.put(ArcMetrics.VALID_SOLUTION, 0.0);
            diagnostics.put("decoded_grid", "none");
            diagnostics.put("decode_failure", e.getMessage());
            return new EvaluationOutcome(metrics, diagnostics);
        }
        ArcComparison cmp = ArcComparison.of(decoded.cells(), truth);
        diagnostics.put("decoded_grid", decoded.cellsText());
        diagnostics.put("decoded_size", decoded.rows() + "x" + decoded.cols());
        diagnostics.put("truth_size", truth.rows() + "x" + truth.cols());
        diagnostics.put("grid_bounds", decoded.bounds().toString());
        diagnostics.put("grid_lines", Boolean.toString(decoded.gridLines()));
        diagnostics.put("ambiguous", Boolean.toString(decoded.ambiguous()));
        return new EvaluationOutcome(cmp.metrics(), diagnostics);
    }

    /** The answer region scaled to the output, when the output is the whole puzzle canvas; else null. */
    static Rect answerRegion(BenchmarkItem item, RgbImage image, int declaredWidth, int declaredHeight)
            throws EvaluationException {
        Rect region = region(item);
        if (region == null) {
            return null;
        }
        int[] canvas = canvasSize(item);
        double cw = canvas == null ? declaredWidth : canvas[0];
        double ch = canvas == null ? declaredHeight : canvas[1];
        double outAspect = declaredWidth / (double) declaredHeight;
        if (Math.abs(outAspect / (cw / ch) - 1) > ArcThresholds.CANVAS_ASPECT_TOLERANCE) {
            return null;
        }
        double sx = image.width() / cw;
        double sy = image.height() / ch;
        int x = (int) Math.floor(region.x() * sx);
        int y = (int) Math.floor(region.y() * sy);
        int w = Math.max(1, (int) Math.ceil(region.width() * sx));
        int h = Math.max(1, (int) Math.ceil(region.height() * sy));
        return new Rect(x, y, w, h);
    }

    /** The puzzle canvas size: the problem artifact's declared size, or groundTruth.extra canvasWidth/Height. */
    private static int[] canvasSize(BenchmarkItem item) {
        Optional<ArtifactRef> problem = ArtifactResolver.find(item.getArtifacts(), "problem");
        if (problem.isPresent() && problem.get().getWidth() != null && problem.get().getHeight() != null) {
            return new int[] {problem.get().getWidth(), problem.get().getHeight()};
        }
        Map<String, String> extra = item.getGroundTruth().getExtra();
        if (extra != null && extra.containsKey("canvasWidth") && extra.containsKey("canvasHeight")) {
            try {
                return new int[] {Integer.parseInt(extra.get("canvasWidth")), Integer.parseInt(extra.get("canvasHeight"))};
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static ArcGrid truth(BenchmarkItem item) throws EvaluationException {
        List<List<Integer>> grid = ArcTruth.of(item.getGroundTruth()).grid();
        if (grid == null) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + " has no ARC ground-truth grid (ArcTruth.grid, or groundTruth.grid)");
        }
        try {
            return ArcGrid.of(grid);
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": ground-truth grid is invalid: " + e.getMessage());
        }
    }

    private static Rect region(BenchmarkItem item) throws EvaluationException {
        List<Integer> r = ArcTruth.of(item.getGroundTruth()).answerRegion();
        if (r == null) {
            return null;
        }
        if (r.size() != 4 || r.stream().anyMatch(v -> v == null) || r.get(2) < 3 || r.get(3) < 3
                || r.get(0) < 0 || r.get(1) < 0) {
            throw new EvaluationException("benchmark item " + item.getSampleId()
                    + ": answerRegion must be [x, y, width, height] with x, y >= 0 and a size of at least 3x3, got " + r);
        }
        return new Rect(r.get(0), r.get(1), r.get(2), r.get(3));
    }
}
