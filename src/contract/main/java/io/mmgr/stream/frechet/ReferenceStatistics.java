package io.mmgr.stream.frechet;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.JsonFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Reads reference statistics (a mean vector and a covariance matrix) from the two formats in use:
 *
 * <ul>
 *   <li><b>NPZ</b> with arrays {@code mu} and {@code sigma}, as pytorch-fid writes them
 *       ({@code save_fid_stats}: {@code np.savez_compressed(path, mu=mu, sigma=sigma)}) and as TTUR's
 *       precomputed {@code fid_stats_*.npz} files are: little- or big-endian float64 / float32, C or
 *       Fortran order (NPY format versions 1-3);</li>
 *   <li><b>JSON</b> {@code {"mean": [...], "covariance": [[...], ...], "samples": n}} ({@code mu} and
 *       {@code sigma} accepted as names too), read as a stream of numbers.</li>
 * </ul>
 *
 * The format is told by the bytes (a ZIP starts {@code PK}). Sizes are bounded by {@code maxDims}
 * before anything large is allocated, so a hostile file cannot exhaust memory.
 */
public final class ReferenceStatistics {

    private ReferenceStatistics() {
    }

    /** A mean, a row-major covariance and the reference set's size when the file gives it. */
    public record Raw(double[] mean, double[] covariance, Long samples) {
        public FrechetReference prepare() {
            return FrechetReference.of(mean, covariance, samples);
        }
    }

    public static Raw read(byte[] bytes, int maxDims) {
        if (bytes.length >= 2 && bytes[0] == 'P' && bytes[1] == 'K') {
            return npz(bytes, maxDims);
        }
        return json(bytes, maxDims);
    }

    // ---- NPZ ------------------------------------------------------------------------------------

    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([<>=|])f([48])'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    static Raw npz(byte[] bytes, int maxDims) {
        long entryLimit = 8L * maxDims * maxDims + (1 << 16);
        double[] mu = null;
        double[] sigma = null;
        int sigmaDims = -1;
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            ZipEntry e;
            while ((e = zip.getNextEntry()) != null) {
                String name = e.getName();
                if (name.equals("mu.npy")) {
                    Npy a = Npy.parse(bounded(zip, entryLimit, name));
                    if (a.shape().length != 1) {
                        throw new IllegalArgumentException("mu must be a vector, its shape is " + a.shapeText());
                    }
                    checkDims(a.shape()[0], maxDims);
                    mu = a.values();
                } else if (name.equals("sigma.npy")) {
                    Npy a = Npy.parse(bounded(zip, entryLimit, name));
                    if (a.shape().length != 2 || a.shape()[0] != a.shape()[1]) {
                        throw new IllegalArgumentException("sigma must be a square matrix, its shape is " + a.shapeText());
                    }
                    checkDims(a.shape()[0], maxDims);
                    sigmaDims = a.shape()[0];
                    sigma = a.values();
                }
            }
        } catch (IOException ex) {
            throw new IllegalArgumentException("not a readable NPZ file: " + ex.getMessage(), ex);
        }
        if (mu == null || sigma == null) {
            throw new IllegalArgumentException("an NPZ reference needs the arrays mu and sigma (pytorch-fid's names)");
        }
        if (sigmaDims != mu.length) {
            throw new IllegalArgumentException("mu has " + mu.length + " values but sigma is " + sigmaDims + " x " + sigmaDims);
        }
        return new Raw(mu, sigma, null);
    }

    private static byte[] bounded(InputStream in, long limit, String name) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        long total = 0;
        int r;
        while ((r = in.read(buf)) > 0) {
            total += r;
            if (total > limit) {
                throw new IllegalArgumentException(name + " is larger than a reference of the largest accepted size");
            }
            out.write(buf, 0, r);
        }
        return out.toByteArray();
    }

    /** One NPY array of floats, its values in C (row-major) order. */
    record Npy(int[] shape, double[] values) {

        String shapeText() {
            return java.util.Arrays.toString(shape);
        }

        static Npy parse(byte[] b) {
            for (int i = 0; i < NPY_MAGIC.length; i++) {
                if (b.length <= i || b[i] != NPY_MAGIC[i]) {
                    throw new IllegalArgumentException("not an NPY array");
                }
            }
            if (b.length < 10) {
                throw new IllegalArgumentException("truncated NPY header");
            }
            int major = b[6] & 0xff;
            ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            int headerLength;
            int start;
            if (major == 1) {
                headerLength = bb.getShort(8) & 0xffff;
                start = 10;
            } else if (major == 2 || major == 3) {
                if (b.length < 12) {
                    throw new IllegalArgumentException("truncated NPY header");
                }
                headerLength = bb.getInt(8);
                start = 12;
            } else {
                throw new IllegalArgumentException("NPY format version " + major + " is not supported");
            }
            if (headerLength < 0 || start + headerLength > b.length) {
                throw new IllegalArgumentException("truncated NPY header");
            }
            String header = new String(b, start, headerLength, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
            Matcher descr = DESCR.matcher(header);
            if (!descr.find()) {
                throw new IllegalArgumentException("NPY arrays must hold float64 or float32, the header says " + header.trim());
            }
            Matcher fortran = FORTRAN.matcher(header);
            Matcher shapeMatch = SHAPE.matcher(header);
            if (!fortran.find() || !shapeMatch.find()) {
                throw new IllegalArgumentException("unreadable NPY header " + header.trim());
            }
            List<Integer> dims = new ArrayList<>();
            for (String part : shapeMatch.group(1).split(",")) {
                if (!part.isBlank()) {
                    dims.add(Integer.parseInt(part.trim()));
                }
            }
            int[] shape = dims.stream().mapToInt(Integer::intValue).toArray();
            long count = 1;
            for (int s : shape) {
                count *= s;
            }
            int width = descr.group(2).equals("8") ? 8 : 4;
            int dataStart = start + headerLength;
            if ((long) b.length - dataStart < count * width) {
                throw new IllegalArgumentException("the NPY array holds fewer values than its shape " + java.util.Arrays.toString(shape));
            }
            ByteBuffer data = ByteBuffer.wrap(b, dataStart, (int) (count * width))
                    .order(descr.group(1).equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
            double[] raw = new double[(int) count];
            for (int i = 0; i < raw.length; i++) {
                raw[i] = width == 8 ? data.getDouble(dataStart + i * 8) : data.getFloat(dataStart + i * 4);
            }
            boolean fortranOrder = fortran.group(1).equals("True");
            if (fortranOrder && shape.length == 2) {
                double[] c = new double[raw.length];
                int rows = shape[0];
                int cols = shape[1];
                for (int i = 0; i < rows; i++) {
                    for (int j = 0; j < cols; j++) {
                        c[i * cols + j] = raw[j * rows + i];
                    }
                }
                raw = c;
            }
            return new Npy(shape, raw);
        }
    }

    // ---- JSON -----------------------------------------------------------------------------------

    private static final JsonFactory JSON = JsonFactory.builder().disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    static Raw json(byte[] bytes, int maxDims) {
        double[] mean = null;
        double[] covariance = null;
        int rows = -1;
        Long samples = null;
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("reference statistics must be a JSON object (or an NPZ file)");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "mean", "mu" -> mean = vector(p, maxDims, field);
                    case "covariance", "sigma" -> {
                        List<double[]> r = matrix(p, maxDims, field);
                        rows = r.size();
                        covariance = new double[rows * rows];
                        for (int i = 0; i < rows; i++) {
                            if (r.get(i).length != rows) {
                                throw new IllegalArgumentException(field + " must be square: row " + i + " has "
                                        + r.get(i).length + " values, there are " + rows + " rows");
                            }
                            System.arraycopy(r.get(i), 0, covariance, i * rows, rows);
                        }
                    }
                    case "samples" -> {
                        if (!p.currentToken().isNumeric()) {
                            throw new IllegalArgumentException("samples must be a number");
                        }
                        samples = p.getLongValue();
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid JSON reference statistics: " + e.getMessage(), e);
        }
        if (mean == null || covariance == null) {
            throw new IllegalArgumentException("reference statistics need \"mean\" and \"covariance\"");
        }
        if (rows != mean.length) {
            throw new IllegalArgumentException("the mean has " + mean.length + " values but the covariance is " + rows + " x " + rows);
        }
        return new Raw(mean, covariance, samples);
    }

    private static double[] vector(JsonParser p, int maxDims, String field) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new IllegalArgumentException(field + " must be an array of numbers");
        }
        double[] out = new double[16];
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (!p.currentToken().isNumeric()) {
                throw new IllegalArgumentException(field + " must be an array of numbers");
            }
            if (n == maxDims) {
                checkDims(n + 1, maxDims);
            }
            if (n == out.length) {
                out = java.util.Arrays.copyOf(out, Math.min(maxDims, out.length * 2));
            }
            out[n++] = p.getDoubleValue();
        }
        return java.util.Arrays.copyOf(out, n);
    }

    private static List<double[]> matrix(JsonParser p, int maxDims, String field) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new IllegalArgumentException(field + " must be an array of rows");
        }
        List<double[]> rows = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (rows.size() == maxDims) {
                checkDims(rows.size() + 1, maxDims);
            }
            rows.add(vector(p, maxDims, field + " row"));
        }
        return rows;
    }

    private static void checkDims(int d, int maxDims) {
        if (d > maxDims) {
            throw new IllegalArgumentException("reference statistics of " + d + " dimensions exceed the limit of " + maxDims);
        }
    }
}
