package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Inflate fills its output exactly as zlib does for every kind of block Deflater writes, and declines
 * (so the PNG decoder goes back to zlib) a stream that ends early, or whose header, data or check
 * sum zlib would reject.
 */
@Tag("unit")
class InflateTest {

    /** Rows of runs and repeats like a rendered image's, with some noise (literals, short matches). */
    private static byte[] picture(Random rnd, int size) {
        byte[] b = new byte[size];
        int row = 3 * 97 + 1;
        for (int i = 0; i < size; i++) {
            if (i >= row && rnd.nextInt(4) > 0) {
                b[i] = b[i - row];
            } else if (i > 0 && rnd.nextInt(8) > 0) {
                b[i] = b[i - (i >= 3 && rnd.nextBoolean() ? 3 : 1)];
            } else {
                b[i] = (byte) rnd.nextInt(256);
            }
        }
        return b;
    }

    private static byte[] deflate(byte[] data, int level, int strategy) {
        Deflater d = new Deflater(level);
        d.setStrategy(strategy);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length + 1024];
        int n = 0;
        while (!d.finished()) {
            n += d.deflate(out, n, out.length - n);
        }
        d.end();
        return Arrays.copyOf(out, n);
    }

    static Stream<Arguments> streams() {
        return Stream.of(
                Arguments.of("stored", Deflater.NO_COMPRESSION, Deflater.DEFAULT_STRATEGY, 70_000),
                Arguments.of("fastest", Deflater.BEST_SPEED, Deflater.DEFAULT_STRATEGY, 200_000),
                Arguments.of("default", Deflater.DEFAULT_COMPRESSION, Deflater.DEFAULT_STRATEGY, 300_000),
                Arguments.of("best", Deflater.BEST_COMPRESSION, Deflater.DEFAULT_STRATEGY, 300_000),
                Arguments.of("filtered", Deflater.DEFAULT_COMPRESSION, Deflater.FILTERED, 100_000),
                Arguments.of("huffman-only", Deflater.DEFAULT_COMPRESSION, Deflater.HUFFMAN_ONLY, 100_000),
                Arguments.of("tiny (fixed codes)", Deflater.DEFAULT_COMPRESSION, Deflater.DEFAULT_STRATEGY, 40));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void inflatesAsZlibDoes(String name, int level, int strategy, int size) throws Exception {
        byte[] data = picture(new Random(name.hashCode()), size);
        byte[] z = deflate(data, level, strategy);
        byte[] out = new byte[size + 5];
        assertThat(Inflate.into(z, 0, z.length, out, size)).isTrue();
        assertThat(Arrays.copyOf(out, size)).isEqualTo(data);
        // a prefix of the output is read too, as the PNG decoder asks for its rows only
        byte[] part = new byte[size / 2];
        assertThat(Inflate.into(z, 0, z.length, part, part.length)).isTrue();
        assertThat(part).isEqualTo(Arrays.copyOf(data, part.length));
        Inflater zlib = new Inflater();
        zlib.setInput(z);
        byte[] ref = new byte[size];
        assertThat(zlib.inflate(ref)).isEqualTo(size);
        zlib.end();
        assertThat(ref).isEqualTo(data);
    }

    @Test
    void declinesWhatItCannotReadInFull() {
        byte[] data = picture(new Random(7), 50_000);
        byte[] z = deflate(data, Deflater.DEFAULT_COMPRESSION, Deflater.DEFAULT_STRATEGY);
        byte[] out = new byte[data.length];
        // more output asked for than the stream holds
        assertThat(Inflate.into(z, 0, z.length, new byte[data.length + 1], data.length + 1)).isFalse();
        // truncated in the middle
        assertThat(Inflate.into(z, 0, z.length / 2, out, out.length)).isFalse();
        // a bad header check, another method, a preset dictionary
        byte[] bad = z.clone();
        bad[1] ^= 1;
        assertThat(Inflate.into(bad, 0, bad.length, out, out.length)).isFalse();
        bad = z.clone();
        bad[0] = (byte) ((bad[0] & 0xF0) | 7);
        assertThat(Inflate.into(bad, 0, bad.length, out, out.length)).isFalse();
        bad = z.clone();
        int flg = (bad[1] & 0xC0) | 0x20;
        bad[1] = (byte) (flg | (31 - (((bad[0] & 0xFF) << 8 | flg) % 31)) % 31);
        assertThat(Inflate.into(bad, 0, bad.length, out, out.length)).isFalse();
        // the stream ends where the output does, so zlib checks the sum there: a wrong one is refused
        bad = z.clone();
        bad[bad.length - 1] ^= 1;
        assertThat(zlibReads(bad, data)).isFalse();
        assertThat(Inflate.into(bad, 0, bad.length, out, out.length)).isFalse();
        assertThat(Inflate.into(z, 0, z.length, out, out.length)).isTrue();
    }

    @Test
    void declinesCorruptData() {
        Random rnd = new Random(11);
        byte[] data = picture(rnd, 20_000);
        byte[] z = deflate(data, Deflater.DEFAULT_COMPRESSION, Deflater.DEFAULT_STRATEGY);
        byte[] out = new byte[data.length];
        int accepted = 0;
        for (int trial = 0; trial < 200; trial++) {
            byte[] bad = z.clone();
            int at = 2 + rnd.nextInt(bad.length - 6);
            bad[at] ^= (byte) (1 << rnd.nextInt(8));
            if (Inflate.into(bad, 0, bad.length, out, out.length)) {
                accepted++;
                // whatever it accepts, zlib reads the same way without complaint
                assertThat(zlibReads(bad, out)).as("flip at byte %d", at).isTrue();
            }
        }
        assertThat(accepted).isLessThan(200);
    }

    /** Whether zlib inflates {@code z} into exactly {@code expected} without an error. */
    private static boolean zlibReads(byte[] z, byte[] expected) {
        Inflater zlib = new Inflater();
        try {
            zlib.setInput(z);
            byte[] ref = new byte[expected.length];
            int got = 0;
            while (got < ref.length) {
                int n = zlib.inflate(ref, got, ref.length - got);
                if (n == 0) {
                    return false;
                }
                got += n;
            }
            return Arrays.equals(ref, expected);
        } catch (java.util.zip.DataFormatException e) {
            return false;
        } finally {
            zlib.end();
        }
    }
}
