package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decoding straight to colour codes gives exactly the codes of the decoded RGB image through the same
 * table, whichever way the image is decoded (direct PNG, JPEG lines, ImageIO, subsampled, video
 * frames), and writes only the image's share of a longer reused buffer.
 */
@Tag("unit")
class DecodeCodesTest {

    /** A table that tells almost every 5-bit colour bin apart, so a wrong channel or bin shows. */
    private static final ColorLut LUT = ColorLut.of((r, g, b) -> ((r >> 3) * 7 + (g >> 3) * 3 + (b >> 3)) % 128);

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mmgr.stream.vision.PngDecoderTest#layouts")
    void pngLayouts(String name, int type) throws Exception {
        byte[] png = PngDecoderTest.png(PngDecoderTest.picture(type, 157, 93, new Random(name.hashCode())));
        assertSameCodes(png, ImageDecoder.Limits.DEFAULT);
    }

    @Test
    void colourAndGreyJpegs() throws Exception {
        RgbImage picture = RgbImage.of(PngDecoderTest.picture(BufferedImage.TYPE_INT_RGB, 211, 130, new Random(3)));
        assertSameCodes(ImageEncoder.jpeg(picture, 60), ImageDecoder.Limits.DEFAULT);
        assertSameCodes(ImageEncoder.jpeg(picture, 95), ImageDecoder.Limits.DEFAULT);
        assertSameCodes(encoded(PngDecoderTest.picture(BufferedImage.TYPE_BYTE_GRAY, 120, 77, new Random(4)), "jpeg"),
                ImageDecoder.Limits.DEFAULT);
    }

    @Test
    void imageIoFormatsAndSubsampledImages() throws Exception {
        BufferedImage picture = PngDecoderTest.picture(BufferedImage.TYPE_INT_RGB, 150, 101, new Random(5));
        assertSameCodes(encoded(picture, "bmp"), ImageDecoder.Limits.DEFAULT);
        // larger than the working side: ImageIO subsamples it, PNG and JPEG alike
        ImageDecoder.Limits small = new ImageDecoder.Limits(100_000_000L, 64);
        assertSameCodes(PngDecoderTest.png(picture), small);
        assertSameCodes(ImageEncoder.jpeg(RgbImage.of(picture), 80), small);
        assertThat(ImageDecoder.decodeCodes(PngDecoderTest.png(picture), small, LUT, byte[]::new).width()).isBetween(32, 64);
    }

    @Test
    void videoFramesAsCodes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("noise.mp4");
        Random random = new Random(6);
        try (VideoEncoder enc = VideoEncoder.open(file, 96, 64, 10, VideoEncoder.Container.MP4)) {
            for (int f = 0; f < 12; f++) {
                enc.write(RgbImage.of(PngDecoderTest.picture(BufferedImage.TYPE_INT_RGB, 96, 64, random)));
            }
        }
        List<byte[]> expected = new ArrayList<>();
        List<Integer> expectedIndex = new ArrayList<>();
        VideoDecoder.sample(file, 5, VideoDecoder.Limits.DEFAULT, (i, frame) -> {
            expected.add(Arrays.copyOf(LUT.label(frame).codes(), 96 * 64));
            expectedIndex.add(i);
        });
        byte[] buffer = garbage(96 * 64 + 500);
        List<byte[]> got = new ArrayList<>();
        List<Integer> gotIndex = new ArrayList<>();
        VideoDecoder.sampleCodes(file, 5, VideoDecoder.Limits.DEFAULT, LUT, n -> buffer, (i, frame) -> {
            assertThat(frame.codes()).isSameAs(buffer);
            assertThat(frame.width()).isEqualTo(96);
            assertThat(frame.height()).isEqualTo(64);
            got.add(Arrays.copyOf(frame.codes(), 96 * 64));
            gotIndex.add(i);
        });
        assertThat(gotIndex).isEqualTo(expectedIndex).hasSize(5);
        for (int k = 0; k < got.size(); k++) {
            assertThat(got.get(k)).as("frame %d", expectedIndex.get(k)).isEqualTo(expected.get(k));
        }
    }

    /** Codes into a longer reused buffer equal the labelled RGB decode; the rest of the buffer is left alone. */
    private static void assertSameCodes(byte[] bytes, ImageDecoder.Limits limits) throws MediaException {
        RgbImage rgb = ImageDecoder.decode(bytes, limits);
        byte[] want = LUT.label(rgb).codes();
        int n = rgb.width() * rgb.height();
        byte[] buffer = garbage(n + 777);
        byte[] tail = Arrays.copyOfRange(buffer, n, buffer.length);
        LabelImage codes = ImageDecoder.decodeCodes(bytes, limits, LUT, need -> {
            assertThat(need).isEqualTo(n);
            return buffer;
        });
        assertThat(codes.width()).isEqualTo(rgb.width());
        assertThat(codes.height()).isEqualTo(rgb.height());
        assertThat(codes.raw()).isTrue();
        assertThat(Arrays.copyOf(codes.codes(), n)).isEqualTo(want);
        assertThat(Arrays.copyOfRange(buffer, n, buffer.length)).isEqualTo(tail);
    }

    private static byte[] garbage(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    private static byte[] encoded(BufferedImage img, String format) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ImageIO.write(img, format, out)).isTrue();
        return out.toByteArray();
    }
}
