package io.mmgr.stream.vision;

import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Iterator;
import java.util.function.IntFunction;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageTypeSpecifier;
import javax.imageio.stream.ImageInputStream;

/**
 * Decodes PNG/JPEG/BMP/GIF bytes with bounded memory: the declared dimensions are read from the
 * header and checked before any pixel is decoded, and large images are subsampled while decoding
 * so the working copy never exceeds {@link Limits#maxWorkingSide()}. Common PNGs go through
 * {@link PngDecoder}, the rest through ImageIO.
 */
public final class ImageDecoder {

    static {
        ImageIO.setUseCache(false); // no temp files per decode
    }

    /**
     * @param maxDeclaredPixels images declaring more pixels than this are refused outright
     * @param maxWorkingSide    longest side of the decoded working copy; larger images are subsampled
     */
    public record Limits(long maxDeclaredPixels, int maxWorkingSide) {
        /** 100 megapixels declared (a 10k x 10k scan), worked on at most 2048 pixels a side. */
        public static final Limits DEFAULT = new Limits(100_000_000L, 2048);
    }

    private ImageDecoder() {
    }

    /** Reads width and height from the header only. */
    public static int[] declaredSize(byte[] bytes) throws MediaException {
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            ImageReader reader = readerFor(in);
            try {
                reader.setInput(in, true, true);
                return new int[] {reader.getWidth(0), reader.getHeight(0)};
            } finally {
                reader.dispose();
            }
        } catch (IOException e) {
            throw new MediaException("image header cannot be read: " + e.getMessage(), e);
        }
    }

    public static RgbImage decode(byte[] bytes, Limits limits) throws MediaException {
        return decode(bytes, limits, PixelRows.rgb());
    }

    /**
     * Decodes straight to raw colour codes through {@code lut}, in a buffer of at least
     * {@code width * height} bytes from {@code buffer} (the caller's reused one): for pipelines that
     * never look at a pixel's RGB again, this spares a full-size RGB copy and a pass over it. The codes
     * are {@code lut.label(decode(bytes, limits))}'s.
     */
    public static LabelImage decodeCodes(byte[] bytes, Limits limits, ColorLut lut, IntFunction<byte[]> buffer)
            throws MediaException {
        return decode(bytes, limits, PixelRows.codes(lut, buffer));
    }

    private static <T> T decode(byte[] bytes, Limits limits, PixelRows<T> rows) throws MediaException {
        if (bytes == null || bytes.length == 0) {
            throw new MediaException("image is empty");
        }
        if (PngDecoder.isPng(bytes)) {
            int[] size = PngDecoder.size(bytes);
            checkDeclared(size[0], size[1], limits);
            if (Math.max(size[0], size[1]) <= limits.maxWorkingSide()) {
                T direct = PngDecoder.decode(bytes, rows);
                if (direct != null) {
                    return direct;
                }
            }
        }
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(bytes))) {
            ImageReader reader = readerFor(in);
            try {
                reader.setInput(in, true, true);
                int w;
                int h;
                try {
                    w = reader.getWidth(0);
                    h = reader.getHeight(0);
                } catch (IOException e) {
                    throw new MediaException("image header cannot be read: " + e.getMessage(), e);
                }
                checkDeclared(w, h, limits);
                ImageReadParam param = reader.getDefaultReadParam();
                int step = (Math.max(w, h) + limits.maxWorkingSide() - 1) / limits.maxWorkingSide();
                if (step > 1) {
                    param.setSourceSubsampling(step, step, 0, 0);
                }
                if (step == 1) {
                    T direct = readRgbOrder(reader, param, w, h, rows);
                    if (direct != null) {
                        return direct;
                    }
                }
                BufferedImage image = reader.read(0, param);
                return rows.of(RgbImage.of(image));
            } finally {
                reader.dispose();
            }
        } catch (MediaException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // ImageIO reports truncated streams as IIOException or, for some codecs, runtime exceptions
            throw new MediaException("image is truncated or corrupt: " + e.getMessage(), e);
        }
    }

    /**
     * Colour JPEGs decoded into an RGB-ordered byte image: the JPEG reader hands over each decoded
     * line in R, G, B order and copies it into the destination with one array copy only when the
     * destination's bands are in that order; into its default BGR image it copies sample by
     * sample (JDK ByteInterleavedRaster.setDataElements), which cost more than the decoding itself.
     * The native decoder converts YCbCr to RGB the same way for both, so the pixels are the same.
     * Null for anything but a plain 3-channel image (grey, CMYK, ...), which takes the usual way.
     */
    private static <T> T readRgbOrder(ImageReader reader, ImageReadParam param, int w, int h, PixelRows<T> rows)
            throws IOException {
        ImageTypeSpecifier raw = reader.getImageTypes(0).next();
        if (raw == null || raw.getBufferedImageType() != BufferedImage.TYPE_3BYTE_BGR
                || !reader.getFormatName().equalsIgnoreCase("jpeg")) {
            return null;
        }
        ComponentColorModel model = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_sRGB),
                false, false, Transparency.OPAQUE, DataBuffer.TYPE_BYTE);
        WritableRaster raster = Raster.createInterleavedRaster(DataBuffer.TYPE_BYTE, w, h, 3 * w, 3,
                new int[] {0, 1, 2}, null);
        param.setDestination(new BufferedImage(model, raster, false, null));
        reader.read(0, param);
        byte[] b = ((DataBufferByte) raster.getDataBuffer()).getData();
        rows.size(w, h);
        for (int y = 0; y < h; y++) {
            rows.row(y, b, 3 * w * y, false);
        }
        return rows.image();
    }

    private static void checkDeclared(int w, int h, Limits limits) throws MediaException {
        if (w <= 0 || h <= 0) {
            throw new MediaException("image declares an empty size " + w + "x" + h);
        }
        if ((long) w * h > limits.maxDeclaredPixels()) {
            throw new MediaException("image declares " + w + "x" + h + " pixels, over the limit of "
                    + limits.maxDeclaredPixels() + " pixels");
        }
    }

    private static ImageReader readerFor(ImageInputStream in) throws MediaException {
        if (in == null) {
            throw new MediaException("image cannot be read");
        }
        Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
        if (!readers.hasNext()) {
            throw new MediaException("not a decodable image (expected PNG, JPEG, BMP or GIF)");
        }
        return readers.next();
    }
}
