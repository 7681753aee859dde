package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.FrechetSample;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;

/**
 * What a planned sample contributes to the live FID / FVD of its run x checkpoint x task. A benchmark
 * item takes part by carrying its task's reference statistics: an artifact of role
 * {@value #REFERENCE_ROLE} (JSON or NPZ, see {@link io.mmgr.stream.frechet.ReferenceStatistics}) and
 * optionally the attributes {@value #FEATURE} (the {@code inputs.features} entry, default
 * {@value #DEFAULT_FEATURE}), {@value #METRIC} ({@code fid} or {@code fvd}; default {@code fvd} for
 * {@code i3d} features, else {@code fid}), and {@value #D_MIN} / {@value #D_MAX} for Eq. (1). Every item
 * of a task names the same reference (the latest one a checkpoint's samples name is used).
 */
public final class FrechetSamples {

    public static final String REFERENCE_ROLE = "frechet-reference";
    public static final String FEATURE = "frechet.feature";
    public static final String METRIC = "frechet.metric";
    public static final String D_MIN = "frechet.dMin";
    public static final String D_MAX = "frechet.dMax";
    public static final String DEFAULT_FEATURE = "inception";

    private FrechetSamples() {
    }

    /** From intake's plan: its event and item. */
    public static List<KeyValue<LeaderboardKey, FrechetSample>> of(IntakeResult.Planned planned) {
        return of(planned.key(), planned.event(), planned.item(), planned.plan().getGenerationId());
    }

    /**
     * The sample's vector (empty when its generation has none, so that an earlier vector of the sample stops
     * counting), keyed by its leaderboard row; nothing when its item names no reference.
     */
    public static List<KeyValue<LeaderboardKey, FrechetSample>> of(SampleKey key, GenerationEvent event, BenchmarkItem item,
                                                                   String generationId) {
        if (item == null || event == null) {
            return List.of();
        }
        ArtifactRef reference = ArtifactResolver.find(item.getArtifacts(), REFERENCE_ROLE).orElse(null);
        if (reference == null) {
            return List.of();
        }
        Map<String, String> attributes = item.getAttributes();
        String feature = attributes.getOrDefault(FEATURE, DEFAULT_FEATURE);
        String metric = attributes.getOrDefault(METRIC, "i3d".equals(feature) ? "fvd" : "fid");
        String problem = null;
        Double dMin = null;
        Double dMax = null;
        try {
            dMin = number(attributes.get(D_MIN), D_MIN);
            dMax = number(attributes.get(D_MAX), D_MAX);
            if ((dMin == null) != (dMax == null)) {
                problem = D_MIN + " and " + D_MAX + " go together";
            } else if (dMin != null && !(dMax > dMin)) {
                problem = D_MAX + " must be greater than " + D_MIN;
            }
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        if (!metric.equals("fid") && !metric.equals("fvd")) {
            problem = METRIC + " must be fid or fvd, not '" + metric + "'";
        }
        List<Double> vector = event.getInputs() == null || event.getInputs().getFeatures() == null ? null
                : event.getInputs().getFeatures().get(feature);
        FrechetSample sample = FrechetSample.newBuilder()
                .setGenerationId(generationId)
                .setSampleId(key.getSampleId())
                .setSeed(key.getSeed())
                .setMetric(metric)
                .setFeature(feature)
                .setVector(vector == null ? List.of() : vector)
                .setReference(reference)
                .setDMin(problem == null ? dMin : null)
                .setDMax(problem == null ? dMax : null)
                .setProblem(problem)
                .build();
        return List.of(KeyValue.pair(new LeaderboardKey(key.getRunId(), key.getCheckpointId(), key.getTask()), sample));
    }

    private static Double number(String text, String name) {
        if (text == null) {
            return null;
        }
        try {
            double v = Double.parseDouble(text.trim());
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a number, not '" + text + "'");
    }
}
