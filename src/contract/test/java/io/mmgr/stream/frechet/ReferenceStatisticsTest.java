package io.mmgr.stream.frechet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Reference statistics from JSON and from NPZ files written here the way numpy's savez_compressed writes them. */
@Tag("unit")
class ReferenceStatisticsTest {

    /** One NPY array (format 1.0): magic, version, header padded to 64 bytes, then the values. */
    static byte[] npy(double[] values, int[] shape, String descr, boolean fortran) {
        StringBuilder dims = new StringBuilder();
        for (int s : shape) {
            dims.append(s).append(", ");
        }
        String shapeText = shape.length == 1 ? shape[0] + "," : dims.substring(0, dims.length() - 2);
        String dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + shapeText + "), }";
        int total = 10 + dict.length() + 1;
        String header = dict + " ".repeat((64 - total % 64) % 64) + "\n";
        int width = descr.endsWith("8") ? 8 : 4;
        ByteBuffer b = ByteBuffer.allocate(10 + header.length() + values.length * width)
                .order(descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.order(ByteOrder.LITTLE_ENDIAN).putShort((short) header.length());
        b.order(descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        b.put(header.getBytes(StandardCharsets.ISO_8859_1));
        for (double v : values) {
            if (width == 8) {
                b.putDouble(v);
            } else {
                b.putFloat((float) v);
            }
        }
        return b.array();
    }

    static byte[] npz(byte[] mu, byte[] sigma) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("mu.npy"));
            zip.write(mu);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("sigma.npy"));
            zip.write(sigma);
            zip.closeEntry();
        }
        return out.toByteArray();
    }

    /** Covariance {{2, 0.5, 0}, {0.5, 1, 0.25}, {0, 0.25, 3}} in row-major order. */
    static final double[] SIGMA = {2, 0.5, 0, 0.5, 1, 0.25, 0, 0.25, 3};
    static final double[] MU = {1.5, -2, 0.125};

    @Test
    void readsPytorchFidNpz() throws IOException {
        ReferenceStatistics.Raw raw = ReferenceStatistics.read(npz(npy(MU, new int[] {3}, "<f8", false),
                npy(SIGMA, new int[] {3, 3}, "<f8", false)), 16);
        assertThat(raw.mean()).containsExactly(MU);
        assertThat(raw.covariance()).containsExactly(SIGMA);
        assertThat(raw.samples()).isNull();
    }

    @Test
    void readsFloat32BigEndianAndFortranOrder() throws IOException {
        // a non-symmetric matrix shows the order: row-major {1, 2, 3, 4} is column-major {1, 3, 2, 4}
        double[] rowMajor = {1, 2, 3, 4};
        double[] columnMajor = {1, 3, 2, 4};
        ReferenceStatistics.Raw raw = ReferenceStatistics.npz(npz(npy(new double[] {0.5, 0.25}, new int[] {2}, ">f4", false),
                npy(columnMajor, new int[] {2, 2}, "<f8", true)), 16);
        assertThat(raw.mean()).containsExactly(0.5, 0.25);
        assertThat(raw.covariance()).containsExactly(rowMajor);
    }

    @Test
    void readsJson() {
        String json = "{\"feature\": \"inception\", \"mean\": [1.5, -2, 0.125], \"samples\": 500,"
                + " \"covariance\": [[2, 0.5, 0], [0.5, 1, 0.25], [0, 0.25, 3]]}";
        ReferenceStatistics.Raw raw = ReferenceStatistics.read(json.getBytes(StandardCharsets.UTF_8), 16);
        assertThat(raw.mean()).containsExactly(MU);
        assertThat(raw.covariance()).containsExactly(SIGMA);
        assertThat(raw.samples()).isEqualTo(500L);
        // pytorch-fid's names work too
        ReferenceStatistics.Raw named = ReferenceStatistics.read("{\"mu\": [0], \"sigma\": [[1]]}".getBytes(StandardCharsets.UTF_8), 16);
        assertThat(named.covariance()).containsExactly(1.0);
    }

    @Test
    void refusesWhatIsNotAReference() throws IOException {
        assertThatThrownBy(() -> ReferenceStatistics.read("{\"mean\": [1, 2], \"covariance\": [[1, 0], [0]]}"
                .getBytes(StandardCharsets.UTF_8), 16)).hasMessageContaining("square");
        assertThatThrownBy(() -> ReferenceStatistics.read("{\"mean\": [1, 2, 3], \"covariance\": [[1, 0], [0, 1]]}"
                .getBytes(StandardCharsets.UTF_8), 16)).hasMessageContaining("3 values");
        assertThatThrownBy(() -> ReferenceStatistics.read("[1, 2]".getBytes(StandardCharsets.UTF_8), 16))
                .hasMessageContaining("JSON object");
        assertThatThrownBy(() -> ReferenceStatistics.read("{\"mean\": [1, 2, 3]}".getBytes(StandardCharsets.UTF_8), 2))
                .hasMessageContaining("exceed the limit of 2");
        assertThatThrownBy(() -> ReferenceStatistics.read(npz(npy(MU, new int[] {3}, "<f8", false),
                npy(SIGMA, new int[] {3, 3}, "<f8", false)), 2)).hasMessageContaining("exceed the limit of 2");
        assertThatThrownBy(() -> ReferenceStatistics.read(npz(npy(MU, new int[] {3}, "<i8", false),
                npy(SIGMA, new int[] {3, 3}, "<f8", false)), 16)).hasMessageContaining("float64 or float32");
        byte[] onlyMu = npz(npy(MU, new int[] {3}, "<f8", false), npy(MU, new int[] {3}, "<f8", false));
        assertThatThrownBy(() -> ReferenceStatistics.read(onlyMu, 16)).hasMessageContaining("square matrix");
    }
}
