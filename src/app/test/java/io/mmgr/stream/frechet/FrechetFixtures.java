package io.mmgr.stream.frechet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Feature vectors with a known structure, a reference statistics file written from them, and the batch
 * {@code mmgr eval fid} value of a set of vectors against it: what the live FID must agree with.
 */
public final class FrechetFixtures {

    private static final ObjectMapper JSON = new ObjectMapper();

    private FrechetFixtures() {
    }

    /** {@code n} correlated vectors of {@code d} values, shifted by {@code shift} per coordinate, from a seed. */
    public static List<double[]> vectors(int n, int d, long seed, double shift) {
        SplittableRandom r = new SplittableRandom(seed);
        List<double[]> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            double common = r.nextGaussian();
            double[] x = new double[d];
            for (int i = 0; i < d; i++) {
                x[i] = shift + 0.6 * common + r.nextGaussian() * (1 + 0.1 * i);
            }
            out.add(x);
        }
        return out;
    }

    public static List<Double> boxed(double[] x) {
        List<Double> out = new ArrayList<>(x.length);
        for (double v : x) {
            out.add(v);
        }
        return out;
    }

    /** Writes the mean and unbiased covariance of {@code vectors} as JSON and returns the claim check to it. */
    public static ArtifactRef writeReference(Path file, List<double[]> vectors) throws IOException {
        Moments m = new Moments(vectors.get(0).length);
        vectors.forEach(m::add);
        ReferenceStatistics.Raw raw = m.statistics();
        int d = raw.mean().length;
        ObjectNode root = JSON.createObjectNode();
        var mean = root.putArray("mean");
        for (double v : raw.mean()) {
            mean.add(v);
        }
        var cov = root.putArray("covariance");
        for (int i = 0; i < d; i++) {
            var row = cov.addArray();
            for (int j = 0; j < d; j++) {
                row.add(raw.covariance()[i * d + j]);
            }
        }
        root.put("samples", raw.samples());
        byte[] bytes = JSON.writeValueAsBytes(root);
        Files.write(file, bytes);
        return ArtifactRef.newBuilder().setRole("frechet-reference").setUri(file.toUri().toString())
                .setSha256(Digests.sha256(bytes)).setMediaType("application/json").build();
    }

    /** The item attributes that name the feature and Eq. (1)'s bounds. */
    public static Map<String, String> attributes(String feature, double dMin, double dMax) {
        return Map.of("frechet.feature", feature, "frechet.dMin", Double.toString(dMin), "frechet.dMax", Double.toString(dMax));
    }

    /** {@code mmgr eval fid --generated <vectors> --reference-stats <file>}, run in this JVM; its JSON answer. */
    public static JsonNode evalFid(Path dir, List<double[]> generated, Path referenceStats, double dMin, double dMax)
            throws IOException {
        Path gen = Files.createTempFile(dir, "generated", ".jsonl");
        List<String> lines = new ArrayList<>();
        for (double[] x : generated) {
            lines.add(JSON.writeValueAsString(x));
        }
        Files.write(gen, lines, StandardCharsets.UTF_8);
        java.io.PrintStream saved = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try {
            System.setOut(new java.io.PrintStream(out, true, StandardCharsets.UTF_8));
            var cl = Main.commandLine();
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute("eval", "fid", "--generated", gen.toString(), "--reference-stats", referenceStats.toString(),
                    "--d-min", Double.toString(dMin), "--d-max", Double.toString(dMax));
        } finally {
            System.setOut(saved);
        }
        if (code != 0) {
            throw new IllegalStateException("eval fid failed: " + err);
        }
        String[] printed = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        return JSON.readTree(printed[printed.length - 1]);
    }
}
