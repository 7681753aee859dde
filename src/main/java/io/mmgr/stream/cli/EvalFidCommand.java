package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.tasks.nav.FrechetDistance;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mmgr eval fid}: the Fréchet distance between the feature sets of generated and reference
 * samples (FID with Inception features, FVD with I3D features), offline. It is distributional: a
 * set of samples (e.g. one checkpoint's outputs on one task) against a reference set, not a per-sample
 * score, so the stream does not compute it.
 */
@Command(name = "fid", mixinStandardHelpOptions = true,
        description = "Frechet distance (FID / FVD) between generated and reference feature vectors, "
                + "optionally normalized into [0, 1] with MMGR's Eq. (1).",
        footer = {"", "Each line of a file is a JSON array of numbers, or a generation event (JSON) whose "
                + "inputs.features.<feature> holds the vector."})
public final class EvalFidCommand implements Callable<Integer> {

    @Option(names = "--generated", required = true, description = "JSONL of the generated samples' feature vectors.")
    Path generated;

    @Option(names = "--reference", required = true, description = "JSONL of the reference samples' feature vectors.")
    Path reference;

    @Option(names = "--feature", defaultValue = "inception",
            description = "Feature name in events' inputs.features (inception for FID, i3d for FVD; default ${DEFAULT-VALUE}).")
    String feature;

    @Option(names = "--metric", defaultValue = "fid", description = "Label of the result: fid or fvd (default ${DEFAULT-VALUE}).")
    String metric;

    @Option(names = "--d-min", description = "Empirical lower bound of the metric, for Eq. (1).")
    Double dMin;

    @Option(names = "--d-max", description = "Empirical upper bound of the metric, for Eq. (1).")
    Double dMax;

    @Override
    public Integer call() {
        if ((dMin == null) != (dMax == null)) {
            throw new CliInputException("--d-min and --d-max go together");
        }
        List<double[]> gen = vectors(generated);
        List<double[]> ref = vectors(reference);
        FrechetDistance.Gaussian g;
        FrechetDistance.Gaussian r;
        try {
            g = FrechetDistance.fit(gen);
            r = FrechetDistance.fit(ref);
        } catch (IllegalArgumentException e) {
            throw new CliInputException(e.getMessage());
        }
        if (g.dims() != r.dims()) {
            throw new CliInputException("generated vectors have " + g.dims() + " values, reference vectors " + r.dims());
        }
        double d = FrechetDistance.distance(g, r);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(metric, d);
        out.put("lower_is_better", true);
        out.put("n_generated", g.samples());
        out.put("n_reference", r.samples());
        out.put("dims", g.dims());
        if (dMin != null) {
            try {
                out.put(metric + "_normalized", FrechetDistance.normalize(d, dMin, dMax));
            } catch (IllegalArgumentException e) {
                throw new CliInputException(e.getMessage());
            }
        }
        System.out.println(JsonOutput.line(out));
        return 0;
    }

    private List<double[]> vectors(Path file) {
        List<double[]> out = new ArrayList<>();
        for (JsonlInput.Line line : JsonlInput.read(file, true)) {
            JsonNode n = line.node();
            out.add(toArray(line, n));
        }
        return out;
    }

    private double[] toArray(JsonlInput.Line line, JsonNode n) {
        JsonNode v = n;
        if (n.isObject()) {
            v = n.path("inputs").path("features").path(feature);
            if (v.isMissingNode() || v.isNull()) {
                throw line.error("no inputs.features." + feature);
            }
        }
        List<Double> values = JsonlInput.numberArray(line, v, "features");
        double[] a = new double[values.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = values.get(i);
        }
        return a;
    }
}
