package io.mmgr.stream.tasks.sudoku;

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
import io.mmgr.stream.tasks.FrameBudget;
import io.mmgr.stream.vision.GridException;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.OcrException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * MMGR's OCR-based Sudoku pipeline (seed D.4.2) as the {@code sudoku-ocr} part: reads the output image
 * or video against the item's givens and solution. Tesseract stands in for the paper's PaddleOCR.
 *
 * <p>Holds one OCR engine, started on first use (the registry instantiates evaluators just to learn
 * their ids) and released by {@link #close()}; the stream gives every task its own instance, as the
 * engine is not thread-safe.
 */
public final class SudokuOcrEvaluator implements DeterministicEvaluator, AutoCloseable {

    public static final String ID = SudokuMetrics.OCR_EVALUATOR;
    private static final String OUTPUT = "output";

    private final ImageDecoder.Limits imageLimits;
    private final VideoDecoder.Limits videoLimits;
    private DigitOcr ocr;

    public SudokuOcrEvaluator() {
        this(ImageDecoder.Limits.DEFAULT, VideoDecoder.Limits.DEFAULT);
    }

    public SudokuOcrEvaluator(ImageDecoder.Limits imageLimits, VideoDecoder.Limits videoLimits) {
        this.imageLimits = imageLimits;
        this.videoLimits = videoLimits;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        return ArtifactResolver.find(event.getArtifacts(), OUTPUT)
                .map(out -> MediaKind.of(out, event.getModality()).costClass()).orElse(CostClass.IMAGE);
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        Optional<ArtifactRef> out = ArtifactResolver.find(event.getArtifacts(), OUTPUT);
        if (out.isEmpty()) {
            return Optional.of("sudoku generation has no artifact with role 'output'");
        }
        try {
            puzzle(item);
        } catch (EvaluationException e) {
            return Optional.of(e.getMessage());
        }
        if (!MediaKind.of(out.get(), event.getModality()).isMedia()) {
            return Optional.of("sudoku output must be an image or a video, got media type '" + out.get().getMediaType() + "'");
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        GenerationEvent event = context.event();
        ArtifactRef output = ArtifactResolver.find(event.getArtifacts(), OUTPUT)
                .orElseThrow(() -> new EvaluationException("sudoku generation has no artifact with role 'output'"));
        SudokuPuzzle puzzle = puzzle(context.item());
        SudokuScore score;
        Map<String, String> diagnostics = new LinkedHashMap<>();
        if (MediaKind.of(output, event.getModality()).isVideo()) {
            Path file = context.artifacts().file(output);
            SudokuVideoScorer scorer = new SudokuVideoScorer(puzzle, engine());
            int budget = FrameBudget.forModel(event.getModel());
            try {
                VideoDecoder.sample(file, budget, videoLimits, scorer::accept);
                score = scorer.finish();
            } catch (MediaException e) {
                throw new EvaluationException("sudoku output video: " + e.getMessage(), e);
            } catch (GridException e) {
                throw new EvaluationException("sudoku output video: " + e.getMessage(), e);
            }
            diagnostics.put("modality", "video");
            diagnostics.put("frame_budget", Integer.toString(budget));
        } else {
            RgbImage image;
            try {
                image = ImageDecoder.decode(context.artifacts().read(output), imageLimits);
            } catch (MediaException e) {
                throw new EvaluationException("sudoku output image: " + e.getMessage(), e);
            }
            try {
                score = SudokuImageScorer.score(puzzle, image, engine());
            } catch (GridException e) {
                throw new EvaluationException("sudoku output image: " + e.getMessage(), e);
            }
            diagnostics.put("modality", "image");
        }
        diagnostics.put("grid", score.grid());
        diagnostics.putAll(score.diagnostics());
        return new EvaluationOutcome(score.metrics(), diagnostics);
    }

    private DigitOcr engine() throws EvaluationException {
        if (ocr == null) {
            try {
                ocr = DigitOcr.open();
            } catch (OcrException e) {
                throw new EvaluationException("OCR engine unavailable: " + e.getMessage(), e);
            }
        }
        return ocr;
    }

    /** The item's puzzle ({@link SudokuTruth}): its size (or the size the givens imply), givens and solution. */
    static SudokuPuzzle puzzle(BenchmarkItem item) throws EvaluationException {
        SudokuTruth gt = SudokuTruth.of(item.getGroundTruth());
        if (gt.givens() == null || gt.solution() == null) {
            throw new EvaluationException("benchmark item " + item.getSampleId()
                    + " has no sudoku ground truth (its payload SudokuTruth, or givens and answer)");
        }
        Integer size = gt.size();
        if (size == null) {
            int cells = (int) gt.givens().chars().filter(c -> c == '.' || (c >= '0' && c <= '9')).count();
            size = cells == 16 ? 4 : cells == 81 ? 9 : -1;
        }
        try {
            return SudokuPuzzle.parse(size, gt.givens(), gt.solution());
        } catch (IllegalArgumentException e) {
            throw new EvaluationException("benchmark item " + item.getSampleId() + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        if (ocr != null) {
            ocr.close();
            ocr = null;
        }
    }
}
