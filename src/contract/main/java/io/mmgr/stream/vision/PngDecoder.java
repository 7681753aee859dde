package io.mmgr.stream.vision;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A direct PNG decoder for the common case: 8-bit grey, grey+alpha, RGB, RGBA and palette images
 * (1, 2, 4 or 8 bits), not interlaced (PNG specification, W3C 2nd edition: chunk layout section 5,
 * filters section 9, Adam7 section 8.2). Rows are inflated and unfiltered straight into packed RGB
 * (or colour codes, see {@link PixelRows}), alpha composited over white, without ImageIO's raster and colour-model layers, which cost more than
 * the inflating itself on large maze images. Anything else (interlaced, 16-bit, unusual chunks
 * ordering) is left to ImageIO: {@link #decode} returns null.
 */
final class PngDecoder {

    static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    private PngDecoder() {
    }

    static boolean isPng(byte[] b) {
        if (b.length < SIGNATURE.length) {
            return false;
        }
        for (int i = 0; i < SIGNATURE.length; i++) {
            if (b[i] != SIGNATURE[i]) {
                return false;
            }
        }
        return true;
    }

    /** Width and height from the IHDR chunk. */
    static int[] size(byte[] b) throws MediaException {
        if (b.length < 24 || b[12] != 'I' || b[13] != 'H' || b[14] != 'D' || b[15] != 'R') {
            throw new MediaException("image header cannot be read: PNG without IHDR");
        }
        ByteBuffer bb = ByteBuffer.wrap(b);
        return new int[] {bb.getInt(16), bb.getInt(20)};
    }

    /**
     * Decodes the image, or returns null when it is a PNG this decoder leaves to ImageIO. The caller
     * has checked the declared size against its limits.
     */
    static RgbImage decode(byte[] b) throws MediaException {
        return decode(b, PixelRows.rgb());
    }

    /** As {@link #decode(byte[])}, each row into {@code rows} (null when left to ImageIO). */
    static <T> T decode(byte[] b, PixelRows<T> rows) throws MediaException {
        ByteBuffer bb = ByteBuffer.wrap(b);
        int pos = SIGNATURE.length;
        int width = 0;
        int height = 0;
        int depth = 0;
        int type = -1;
        int[] palette = null;
        byte[] paletteAlpha = null;
        int[] key = null;
        byte[] idat = new byte[Math.max(16, b.length)];
        int idatLength = 0;
        boolean ended = false;
        CRC32 crc = new CRC32();
        while (pos + 8 <= b.length) {
            int length = bb.getInt(pos);
            if (length < 0 || pos + 12L + length > b.length) {
                throw new MediaException("image is truncated or corrupt: PNG chunk runs past the end");
            }
            int t = pos + 4;
            int data = pos + 8;
            crc.reset();
            crc.update(b, t, 4 + length);
            if ((int) crc.getValue() != bb.getInt(data + length)) {
                throw new MediaException("image is truncated or corrupt: PNG chunk CRC mismatch");
            }
            String name = new String(b, t, 4, java.nio.charset.StandardCharsets.US_ASCII);
            switch (name) {
                case "IHDR" -> {
                    width = bb.getInt(data);
                    height = bb.getInt(data + 4);
                    depth = b[data + 8] & 0xFF;
                    type = b[data + 9] & 0xFF;
                    int interlace = b[data + 12] & 0xFF;
                    boolean supported = interlace == 0 && (depth == 8 || ((type == 3 || type == 0) && depth < 8));
                    if (!supported || (type != 0 && type != 2 && type != 3 && type != 4 && type != 6)) {
                        return null;
                    }
                }
                case "PLTE" -> {
                    palette = new int[256];
                    for (int i = 0; i < length / 3 && i < 256; i++) {
                        palette[i] = ((b[data + 3 * i] & 0xFF) << 16) | ((b[data + 3 * i + 1] & 0xFF) << 8) | (b[data + 3 * i + 2] & 0xFF);
                    }
                }
                case "tRNS" -> {
                    if (type == 3) {
                        paletteAlpha = new byte[256];
                        java.util.Arrays.fill(paletteAlpha, (byte) 0xFF);
                        System.arraycopy(b, data, paletteAlpha, 0, Math.min(256, length));
                    } else if (type == 2 && length >= 6) {
                        key = new int[] {bb.getShort(data) & 0xFF, bb.getShort(data + 2) & 0xFF, bb.getShort(data + 4) & 0xFF};
                    } else if (type == 0 && length >= 2) {
                        key = new int[] {bb.getShort(data) & 0xFFFF};
                    }
                }
                case "IDAT" -> {
                    System.arraycopy(b, data, idat, idatLength, length);
                    idatLength += length;
                }
                case "IEND" -> ended = true;
                default -> {
                    // ancillary chunks (gamma, text, physical size) do not change how a maze reads
                }
            }
            pos = data + length + 4;
            if (ended) {
                break;
            }
        }
        if (type < 0 || width <= 0 || height <= 0) {
            throw new MediaException("image header cannot be read: PNG without IHDR");
        }
        if (type == 3 && palette == null) {
            throw new MediaException("image is truncated or corrupt: palette PNG without PLTE");
        }
        if (idatLength == 0 || !ended) {
            throw new MediaException("image is truncated or corrupt: PNG image data or IEND missing");
        }
        int channels = switch (type) {
            case 0, 3 -> 1;
            case 4 -> 2;
            case 2 -> 3;
            default -> 4;
        };
        int bpp = Math.max(1, channels * depth / 8);
        int rowBytes = (int) (((long) width * channels * depth + 7) / 8);
        int stride = rowBytes + 1;
        int size = Math.multiplyExact(stride, height);
        // the whole image inflated at once where Inflate reads the stream (see there), else row by row
        // through zlib as it comes; the rows then lie one after the other, each unfiltered against the one above
        byte[] raw = buffer(size);
        boolean whole = Inflate.into(idat, 0, idatLength, raw, size);
        byte[] none = new byte[stride];
        rows.size(width, height);
        int[] packed = new int[width];
        Inflater inflater = whole ? null : new Inflater();
        try {
            if (inflater != null) {
                inflater.setInput(idat, 0, idatLength);
            }
            for (int y = 0, r = 0; y < height; y++, r += stride) {
                int got = 0;
                int stalled = 0;
                while (inflater != null && got < stride) {
                    int n = inflater.inflate(raw, r + got, stride - got);
                    if (n == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary()
                            || ++stalled > 64)) {
                        throw new MediaException("image is truncated or corrupt: PNG image data ends at row " + y);
                    }
                    got += n;
                }
                byte[] prev = y == 0 ? none : raw;
                int p = y == 0 ? 0 : r - stride;
                unfilter(raw, r, prev, p, bpp, rowBytes);
                if (y > 0 && java.util.Arrays.equals(raw, r + 1, r + stride, raw, p + 1, p + stride)) {
                    // a row repeating the one above (most rows of a rendered maze) is copied, not packed again
                    rows.repeat(y);
                } else {
                    pack(raw, r, packed, 0, width, type, depth, palette, paletteAlpha, key);
                    rows.row(y, packed);
                }
            }
        } catch (DataFormatException e) {
            throw new MediaException("image is truncated or corrupt: " + e.getMessage(), e);
        } finally {
            if (inflater != null) {
                inflater.end();
            }
        }
        return rows.image();
    }

    /**
     * This thread's buffer for inflated rows, at least {@code n} bytes (a 2,048 px RGBA image needs
     * 16 MB); kept from image to image, as allocating and zeroing it each time costs about as much
     * as filling it.
     */
    private static byte[] buffer(int n) {
        byte[] b = RAW.get();
        if (b.length < n) {
            b = new byte[n];
            RAW.set(b);
        }
        return b;
    }

    private static final ThreadLocal<byte[]> RAW = ThreadLocal.withInitial(() -> new byte[0]);

    /** Undoes the filter of the row at {@code b[r]} in place (bytes 1..n after r; byte r is the filter type), the row above at {@code prev[p]}. */
    private static void unfilter(byte[] b, int r, byte[] prev, int p, int bpp, int n) throws MediaException {
        int filter = b[r];
        switch (filter) {
            case 0 -> {
            }
            case 1 -> {
                for (int i = r + 1 + bpp; i <= r + n; i++) {
                    b[i] += b[i - bpp];
                }
            }
            case 2 -> {
                for (int i = 1; i <= n; i++) {
                    b[r + i] += prev[p + i];
                }
            }
            case 3 -> {
                for (int i = 1; i <= n; i++) {
                    int left = i > bpp ? b[r + i - bpp] & 0xFF : 0;
                    b[r + i] += (byte) ((left + (prev[p + i] & 0xFF)) >>> 1);
                }
            }
            case 4 -> {
                for (int i = 1; i <= bpp && i <= n; i++) {
                    b[r + i] += prev[p + i];
                }
                for (int i = 1 + bpp; i <= n; i++) {
                    int a = b[r + i - bpp] & 0xFF;
                    int up = prev[p + i] & 0xFF;
                    int c = prev[p + i - bpp] & 0xFF;
                    int pa = Math.abs(up - c);
                    int pb = Math.abs(a - c);
                    int pc = Math.abs(a + up - 2 * c);
                    b[r + i] += (byte) (pa <= pb && pa <= pc ? a : pb <= pc ? up : c);
                }
            }
            default -> throw new MediaException("image is truncated or corrupt: PNG filter type " + filter);
        }
    }

    /** The row at {@code b[r]} (its filter byte first) packed into {@code out[o ..]}. */
    private static void pack(byte[] b, int r, int[] out, int o, int width, int type, int depth, int[] palette,
                             byte[] paletteAlpha, int[] key) {
        switch (type) {
            case 2 -> {
                for (int x = 0, j = r + 1; x < width; x++, j += 3) {
                    int red = b[j] & 0xFF;
                    int g = b[j + 1] & 0xFF;
                    int bl = b[j + 2] & 0xFF;
                    out[o + x] = key != null && red == key[0] && g == key[1] && bl == key[2] ? 0xFFFFFF : (red << 16) | (g << 8) | bl;
                }
            }
            case 6 -> {
                for (int x = 0, j = r + 1; x < width; x++, j += 4) {
                    out[o + x] = RgbImage.overWhite(b[j + 3] & 0xFF, b[j] & 0xFF, b[j + 1] & 0xFF, b[j + 2] & 0xFF);
                }
            }
            case 0 -> {
                int max = (1 << depth) - 1;
                for (int x = 0; x < width; x++) {
                    int sample = depth == 8 ? b[r + 1 + x] & 0xFF : packed(b, r, x, depth);
                    int v = sample * 255 / max;
                    out[o + x] = key != null && sample == key[0] ? 0xFFFFFF : (v << 16) | (v << 8) | v;
                }
            }
            case 4 -> {
                for (int x = 0, j = r + 1; x < width; x++, j += 2) {
                    int v = b[j] & 0xFF;
                    out[o + x] = RgbImage.overWhite(b[j + 1] & 0xFF, v, v, v);
                }
            }
            default -> {
                for (int x = 0; x < width; x++) {
                    int index = depth == 8 ? b[r + 1 + x] & 0xFF : packed(b, r, x, depth);
                    int rgb = palette[index];
                    out[o + x] = paletteAlpha == null ? rgb
                            : RgbImage.overWhite(paletteAlpha[index] & 0xFF, (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF);
                }
            }
        }
    }

    /** Sample {@code x} of the row at {@code b[r]} packed at 1, 2 or 4 bits, most significant bits first. */
    private static int packed(byte[] b, int r, int x, int depth) {
        int perByte = 8 / depth;
        return ((b[r + 1 + x / perByte] & 0xFF) >> (8 - depth * (x % perByte + 1))) & ((1 << depth) - 1);
    }
}
