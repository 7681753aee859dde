package io.mmgr.stream.tasks.nav;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.MediaKind;
import io.mmgr.stream.vision.ImageDecoder;
import io.mmgr.stream.vision.ImageQuality;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code view-syn} part of T6-T8 (diagnostic, never gating), per sample: SSIM and PSNR
 * ({@link ImageQuality}) between the generated frames (role {@code output}) and the item's reference
 * frames (role {@code reference}), and LPIPS as computed by the user's pipeline
 * ({@code inputs.values.lpips}; the network cannot be run here). Videos are compared frame by frame on
 * {@value NavThresholds#VIEW_SYN_FRAMES} frames sampled evenly from each, a generated frame resized to its
 * reference's size; an image is compared with the other side's last frame. Identical frames have an
 * infinite PSNR, reported as {@value NavThresholds#PSNR_CAP} dB so that means stay finite.
 *
 * <p>FID and FVD are distributional (a Fréchet distance between the feature distributions of a whole
 * set of samples), so they are not per-sample metrics: the task row carries them live when the benchmark
 * items name reference statistics (io.mmgr.stream.topology.frechet), and {@code mmgr eval fid} computes
 * them offline, both from the {@code inputs.features} the events carry. This part only checks those
 * vectors at intake.
 */
public final class ViewSynEvaluator implements DeterministicEvaluator {

    public static final String ID = NavMetrics.VIEW_SYN_EVALUATOR;
    public static final String SSIM = "ssim";
    public static final String PSNR = "psnr";
    public static final String LPIPS = "lpips";

    private final ImageDecoder.Limits imageLimits;
    private final VideoDecoder.Limits videoLimits;

    public ViewSynEvaluator() {
        this(ImageDecoder.Limits.DEFAULT, VideoDecoder.Limits.DEFAULT);
    }

    public ViewSynEvaluator(ImageDecoder.Limits imageLimits, VideoDecoder.Limits videoLimits) {
        this.imageLimits = imageLimits;
        this.videoLimits = videoLimits;
    }

    @Override
    public String id() {
        return ID;
    }

    /** Frames of the output and the item's reference are compared: the costlier of the two decides. */
    @Override
    public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
        Optional<ArtifactRef> out = ArtifactResolver.find(event.getArtifacts(), "output");
        Optional<ArtifactRef> ref = ArtifactResolver.find(item.getArtifacts(), "reference");
        MediaKind o = out.map(MediaKind::of).orElse(MediaKind.OTHER);
        MediaKind r = ref.map(MediaKind::of).orElse(MediaKind.OTHER);
        if (o.isVideo() || r.isVideo()) {
            return CostClass.VIDEO;
        }
        return o.isImage() || r.isImage() ? CostClass.IMAGE : CostClass.LIGHT;
    }

    @Override
    public String version() {
        return "1";
    }

    @Override
    public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
        GenerationInputs in = event.getInputs();
        if (in == null) {
            return Optional.empty();
        }
        if (in.getValues() != null && in.getValues().containsKey(LPIPS)) {
            Double v = in.getValues().get(LPIPS);
            if (v == null || !Double.isFinite(v) || v < 0) {
                return Optional.of("inputs.values.lpips must be a non-negative number, got " + v);
            }
        }
        if (in.getFeatures() != null) {
            for (Map.Entry<String, List<Double>> f : in.getFeatures().entrySet()) {
                List<Double> v = f.getValue();
                if (v == null || v.isEmpty() || v.stream().anyMatch(x -> x == null || !Double.isFinite(x))) {
                    return Optional.of("inputs.features." + f.getKey() + " must be a non-empty vector of finite numbers");
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
        Map<String, Double> m = new LinkedHashMap<>();
        Map<String, String> diag = new LinkedHashMap<>();
        diag.put("higher_is_better", SSIM + "," + PSNR);
        diag.put("lower_is_better", LPIPS);
        m.put(SSIM, null);
        m.put(PSNR, null);
        Optional<ArtifactRef> out = ArtifactResolver.find(context.event().getArtifacts(), "output");
        Optional<ArtifactRef> ref = ArtifactResolver.find(context.item().getArtifacts(), "reference")
                .filter(a -> MediaKind.of(a).isMedia());
        if (out.isPresent() && ref.isPresent() && MediaKind.of(out.get()).isMedia()) {
            List<RgbImage> generated = frames(context, out.get(), "output");
            List<RgbImage> reference = frames(context, ref.get(), "reference");
            if (generated.size() == 1 || reference.size() == 1) {
                generated = List.of(generated.get(generated.size() - 1));
                reference = List.of(reference.get(reference.size() - 1));
            }
            int n = Math.min(generated.size(), reference.size());
            double ssim = 0;
            double psnr = 0;
            for (int i = 0; i < n; i++) {
                // pair by position in time when the two sides yielded different counts
                RgbImage g = generated.get((int) Math.round(i * (generated.size() - 1) / (double) Math.max(1, n - 1)));
                RgbImage r = reference.get((int) Math.round(i * (reference.size() - 1) / (double) Math.max(1, n - 1)));
                g = ImageQuality.resize(g, r.width(), r.height());
                if (r.width() < 11 || r.height() < 11) {
                    throw new EvaluationException("reference frames are too small for SSIM (at least 11x11 pixels)");
                }
                ssim += ImageQuality.ssim(g, r);
                psnr += Math.min(NavThresholds.PSNR_CAP, ImageQuality.psnr(g, r));
            }
            m.put(SSIM, ssim / n);
            m.put(PSNR, psnr / n);
            diag.put("frames_compared", Integer.toString(n));
        } else {
            diag.put("ssim_psnr", ref.isEmpty() ? "the benchmark item has no reference image or video"
                    : "the generation has no output image or video");
        }
        GenerationInputs in = context.event().getInputs();
        Double lpips = in == null || in.getValues() == null ? null : in.getValues().get(LPIPS);
        m.put(LPIPS, lpips);
        if (in != null && in.getFeatures() != null && !in.getFeatures().isEmpty()) {
            List<String> f = new ArrayList<>();
            in.getFeatures().forEach((k, v) -> f.add(k + "(" + v.size() + ")"));
            diag.put("features", String.join(",", f) + " - in the task row's live FID/FVD, or mmgr eval fid");
        }
        return new EvaluationOutcome(m, diag);
    }

    private List<RgbImage> frames(EvaluationContext context, ArtifactRef ref, String what) throws EvaluationException {
        try {
            if (MediaKind.of(ref).isImage()) {
                return List.of(ImageDecoder.decode(context.artifacts().read(ref), imageLimits));
            }
            List<RgbImage> frames = new ArrayList<>();
            VideoDecoder.sample(context.artifacts().file(ref), NavThresholds.VIEW_SYN_FRAMES, videoLimits,
                    (i, f) -> frames.add(f));
            return frames;
        } catch (MediaException e) {
            throw new EvaluationException("view-syn " + what + ": " + e.getMessage(), e);
        }
    }
}
