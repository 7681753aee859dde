package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.frechet.FrechetReference;
import io.mmgr.stream.frechet.Moments;
import io.mmgr.stream.frechet.ReferenceStatistics;
import io.mmgr.stream.frechet.RunningFrechet;
import io.mmgr.stream.tasks.cli.CliInputException;
import io.mmgr.stream.tasks.cli.JsonOutput;
import io.mmgr.stream.tasks.cli.JsonlInput;
import java.io.IOException;
import java.nio.file.Files;
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
 * samples (FID with Inception features, FVD with I3D features), offline, with the stream's code: the
 * generated vectors go one by one into the same running statistic ({@link RunningFrechet}) the stream's
 * leaderboard keeps per run x checkpoint x task, against the same reference ({@link FrechetReference}),
 * read from a statistics file as the stream reads it or fitted from reference vectors.
 */
@Command(name = "fid", mixinStandardHelpOptions = true,
        description = "Frechet distance (FID / FVD) between generated and reference feature vectors, "
                + "optionally normalized into [0, 1] with MMGR's Eq. (1).",
        footer = {"", "Each line of a file is a JSON array of numbers, or a generation event (JSON) whose "
                + "inputs.features.<feature> holds the vector. --reference-stats reads a mean and covariance "
                + "instead: JSON {\"mean\": [...], \"covariance\": [[...]]} or pytorch-fid's NPZ (mu, sigma)."})
public final class EvalFidCommand implements Callable<Integer> {

    @Option(names = "--generated", required = true, description = "JSONL of the generated samples' feature vectors.")
    Path generated;

    @Option(names = "--reference", description = "JSONL of the reference samples' feature vectors.")
    Path reference;

    @Option(names = "--reference-stats", paramLabel = "FILE",
            description = "The reference's mean and covariance (JSON or NPZ), as a benchmark item's frechet-reference artifact.")
    Path referenceStats;

    @Option(names = "--max-dims", defaultValue = "4096", description = "Largest feature dimension accepted (default ${DEFAULT-VALUE}).")
    int maxDims;

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
        if ((reference == null) == (referenceStats == null)) {
            throw new CliInputException("give either --reference (vectors) or --reference-stats (mean and covariance)");
        }
        FrechetReference ref;
        Long referenceSamples;
        try {
            ReferenceStatistics.Raw raw = reference != null ? fit(vectors(reference)) : ReferenceStatistics.read(read(referenceStats), maxDims);
            ref = raw.prepare();
            referenceSamples = raw.samples();
        } catch (IllegalArgumentException e) {
            throw new CliInputException((reference != null ? reference : referenceStats) + ": " + e.getMessage());
        }
        List<double[]> gen = vectors(generated);
        RunningFrechet running = ref.running();
        for (int i = 0; i < gen.size(); i++) {
            if (gen.get(i).length != ref.dims()) {
                throw new CliInputException(generated + ": vector " + (i + 1) + " has " + gen.get(i).length
                        + " values, the reference " + ref.dims());
            }
            try {
                running.add(gen.get(i));
            } catch (IllegalArgumentException e) {
                throw new CliInputException(generated + ": vector " + (i + 1) + ": " + e.getMessage());
            }
        }
        Double d = running.distance();
        if (d == null) {
            throw new CliInputException(generated + ": a Gaussian fit needs at least two feature vectors");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(metric, d);
        out.put("lower_is_better", true);
        out.put("n_generated", running.samples());
        out.put("n_reference", referenceSamples);
        out.put("dims", ref.dims());
        if (dMin != null) {
            try {
                out.put(metric + "_normalized", FrechetReference.normalize(d, dMin, dMax));
            } catch (IllegalArgumentException e) {
                throw new CliInputException(e.getMessage());
            }
        }
        System.out.println(JsonOutput.line(out));
        return 0;
    }

    private static ReferenceStatistics.Raw fit(List<double[]> vectors) {
        Moments m = new Moments(vectors.get(0).length);
        vectors.forEach(m::add);
        return m.statistics();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new CliInputException(file + ": cannot read: " + e.getMessage());
        }
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
