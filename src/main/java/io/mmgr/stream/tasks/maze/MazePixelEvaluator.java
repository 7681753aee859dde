package io.mmgr.stream.tasks.maze;

import io.mmgr.stream.tasks.FrameBudget;
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
import io.mmgr.stream.vision.LabelImage;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.VideoDecoder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * MMGR's deterministic maze pipeline (C.5.3) as the {@code maze-pixel} part: reads the output image or
 * video and the benchmark item's reference (problem and solution images, lattice and solution path),
 * and reports the pixel metrics. One instance per stream thread; references are cached per item.
 */
public final class MazePixelEvaluator implements DeterministicEvaluator {

    public static final String ID = "maze-pixel";
    /** Smallest and largest maze sides accepted (MMGR uses 3..13; a little room either way). */
    static final int MIN_SIDE = 2;
    static final int MAX_SIDE = 32;
    private static final int CACHE_SIZE = 128;

    private final ImageDecoder.Limits imageLimits;
    private final VideoDecoder.Limits videoLimits;
    private final Map<String, MazeReference> references = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, MazeReference> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    public MazePixelEvaluator() {
        this(ImageDecoder.Limits.DEFAULT, VideoDecoder.Limits.DEFAULT);
    }

    public MazePixelEvaluator(ImageDecoder.Limits imageLimits, VideoDecoder.Limits videoLimits) {
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
                .map(out -> MediaKind.of(out, event.getModality()).costClass()).orElse(CostClass.IMAGE);
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        if (ArtifactResolver.find(event.getArtifacts(), "output").isEmpty()) {
            return Optional.of("maze generation has no artifact with role 'output'");
        }
        Optional<String> badSize = DeterministicEvaluator.problemOf(() -> size(item));
        if (badSize.isPresent()) {
            return badSize;
        }
        Optional<String> badMarkers = DeterministicEvaluator.problemOf(() -> roles(item));
        if (badMarkers.isPresent()) {
            return badMarkers;
        }
        ArtifactRef out = ArtifactResolver.find(event.getArtifacts(), "output").get();
        if (!MediaKind.of(out, event.getModality()).isMedia()) {
            return Optional.of("maze output must be an image or a video, got media type '" + out.getMediaType() + "'");
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        GenerationEvent event = context.event();
        ArtifactRef output = ArtifactResolver.find(event.getArtifacts(), "output")
                .orElseThrow(() -> new EvaluationException("maze generation has no artifact with role 'output'"));
        MazeReference ref = reference(context.item(), context.artifacts());
        MarkerRoles roles = roles(context.item());
        MazeMetrics metrics;
        Map<String, String> diagnostics = new LinkedHashMap<>();
        if (MediaKind.of(output, event.getModality()).isVideo()) {
            Path file = context.artifacts().file(output);
            MazeVideoScorer scorer = new MazeVideoScorer(ref, roles);
            int budget = FrameBudget.forModel(event.getModel());
            try {
                // frames go straight from FFmpeg's rows to colour codes, in this thread's buffer
                VideoDecoder.sampleCodes(file, budget, videoLimits, MazePalette.lut(), MazeCanvas::codeBuffer,
                        (index, frame) -> scorer.accept(frame));
            } catch (MediaException e) {
                throw new EvaluationException("maze output video: " + e.getMessage(), e);
            }
            try {
                metrics = scorer.finish();
            } catch (MazeReferenceException e) {
                throw new EvaluationException("benchmark item " + context.item().getSampleId() + ": " + e.getMessage());
            }
            diagnostics.put("modality", "video");
            if (scorer.orientation() != null) {
                diagnostics.put("orientation", scorer.orientation().name().toLowerCase(Locale.ROOT));
            }
            diagnostics.put("frame_budget", Integer.toString(budget));
            diagnostics.put("route", scorer.route().toString());
            diagnostics.put("agent", scorer.agentColour());
        } else {
            LabelImage image = decode(context.artifacts().read(output), "maze output image");
            try {
                metrics = MazeImageScorer.score(ref, MazeCanvas.of(image, ref.rows(), ref.cols()), roles);
            } catch (MazeReferenceException e) {
                throw new EvaluationException("benchmark item " + context.item().getSampleId() + ": " + e.getMessage());
            }
            diagnostics.put("modality", "image");
        }
        return new EvaluationOutcome(metrics.asMap(), diagnostics);
    }

    /** The item's reference, built once per item and cached (items are immutable per sample id and digests). */
    MazeReference reference(BenchmarkItem item, ArtifactResolver artifacts) throws EvaluationException {
        int[] size = size(item);
        MazeTruth gt = MazeTruth.of(item.getGroundTruth());
        Optional<ArtifactRef> problem = ArtifactResolver.find(item.getArtifacts(), "problem");
        Optional<ArtifactRef> solution = ArtifactResolver.find(item.getArtifacts(), "solution");
        String key = item.getTask() + "/" + item.getSampleId() + "|" + size[0] + "x" + size[1] + "|"
                + gt.lattice() + "|" + gt.solutionPath() + "|"
                + problem.map(a -> a.getUri() + "#" + a.getSha256()).orElse("-") + "|"
                + solution.map(a -> a.getUri() + "#" + a.getSha256()).orElse("-");
        MazeReference cached = references.get(key);
        if (cached != null) {
            return cached;
        }
        MazeLattice lattice = null;
        if (gt.lattice() != null) {
            try {
                lattice = MazeLattice.parse(gt.lattice(), size[0], size[1]);
            } catch (IllegalArgumentException e) {
                throw new EvaluationException("benchmark item's maze lattice is invalid: " + e.getMessage());
            }
        }
        List<Cell> path = null;
        if (gt.solutionPath() != null) {
            path = new ArrayList<>();
            for (List<Integer> step : gt.solutionPath()) {
                if (step == null || step.size() != 2) {
                    throw new EvaluationException("benchmark item's solution path must list [row, col] pairs");
                }
                path.add(new Cell(step.get(0), step.get(1)));
            }
        }
        MazeCanvas problemCanvas = null;
        MazeCanvas solutionCanvas = null;
        if (problem.isPresent()) {
            problemCanvas = MazeCanvas.of(decode(artifacts.read(problem.get()), "maze problem image"), size[0], size[1]);
        }
        if (solution.isPresent() && path == null) {
            solutionCanvas = MazeCanvas.ofSolution(decode(artifacts.read(solution.get()), "maze solution image"), size[0], size[1]);
        }
        MazeReference ref;
        try {
            ref = MazeReference.build(lattice, path, problemCanvas, solutionCanvas, size[0], size[1]);
        } catch (MazeReferenceException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
        references.put(key, ref);
        return ref;
    }

    /**
     * An image as raw colour codes, in this thread's code buffer (valid until the next decode here):
     * the canvas reads nothing else of it.
     */
    private LabelImage decode(byte[] bytes, String what) throws EvaluationException {
        try {
            return ImageDecoder.decodeCodes(bytes, imageLimits, MazePalette.lut(), MazeCanvas::codeBuffer);
        } catch (MediaException e) {
            throw new EvaluationException(what + ": " + e.getMessage(), e);
        }
    }

    /** The item's marker roles (MMGR's when it names none). */
    private static MarkerRoles roles(BenchmarkItem item) throws EvaluationException {
        MazeTruth gt = MazeTruth.of(item.getGroundTruth());
        try {
            return MarkerRoles.of(gt.markers());
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
    }

    private static int[] size(BenchmarkItem item) throws EvaluationException {
        MazeTruth gt = MazeTruth.of(item.getGroundTruth());
        if (gt.rows() == null || gt.cols() == null) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + " has no maze size (mazeRows, mazeCols)");
        }
        int rows = gt.rows();
        int cols = gt.cols();
        if (rows < MIN_SIDE || cols < MIN_SIDE || rows > MAX_SIDE || cols > MAX_SIDE) {
            throw new EvaluationException("maze size " + rows + "x" + cols + " is outside " + MIN_SIDE + ".." + MAX_SIDE);
        }
        return new int[] {rows, cols};
    }
}
