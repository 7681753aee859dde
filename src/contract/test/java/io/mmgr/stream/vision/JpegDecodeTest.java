package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ImageDecoder reads colour JPEGs into an RGB-ordered buffer (the fast copy); the pixels are those
 * ImageIO's own BGR image holds, for colour and grey JPEGs, at several qualities and odd sizes.
 */
@Tag("unit")
class JpegDecodeTest {

    @ParameterizedTest(name = "quality {0}")
    @ValueSource(ints = {60, 85, 100})
    void colourJpegDecodesAsImageIoDoes(int quality) throws Exception {
        RgbImage img = new RgbImage(173, 91, PngDecoderTest.picture(BufferedImage.TYPE_INT_RGB, 173, 91,
                new Random(quality)).getRGB(0, 0, 173, 91, null, 0, 173));
        byte[] jpeg = ImageEncoder.jpeg(img, quality);
        BufferedImage viaImageIo = ImageIO.read(new ByteArrayInputStream(jpeg));
        assertThat(viaImageIo.getType()).isEqualTo(BufferedImage.TYPE_3BYTE_BGR);
        RgbImage decoded = ImageDecoder.decode(jpeg, ImageDecoder.Limits.DEFAULT);
        assertThat(decoded.width()).isEqualTo(173);
        assertThat(decoded.height()).isEqualTo(91);
        assertThat(decoded.pixels()).isEqualTo(RgbImage.of(viaImageIo).pixels());
    }

    @ParameterizedTest(name = "quality {0}")
    @ValueSource(ints = {70, 95})
    void greyJpegDecodesAsImageIoDoes(int quality) throws Exception {
        BufferedImage grey = PngDecoderTest.picture(BufferedImage.TYPE_BYTE_GRAY, 64, 48, new Random(quality));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ImageIO.write(grey, "jpeg", out)).isTrue();
        byte[] jpeg = out.toByteArray();
        BufferedImage viaImageIo = ImageIO.read(new ByteArrayInputStream(jpeg));
        assertThat(viaImageIo.getType()).isEqualTo(BufferedImage.TYPE_BYTE_GRAY);
        assertThat(ImageDecoder.decode(jpeg, ImageDecoder.Limits.DEFAULT).pixels())
                .isEqualTo(RgbImage.of(viaImageIo).pixels());
    }

    @ParameterizedTest(name = "{0} px")
    @ValueSource(ints = {4096})
    void subsampledJpegKeepsTheUsualWay(int side) throws Exception {
        RgbImage img = RgbImage.filled(side, 40, 0x3366CC);
        byte[] jpeg = ImageEncoder.jpeg(img, 90);
        RgbImage decoded = ImageDecoder.decode(jpeg, new ImageDecoder.Limits(100_000_000L, 2048));
        assertThat(decoded.width()).isEqualTo(2048);
        assertThat(decoded.height()).isEqualTo(20);
        int p = decoded.get(1000, 10);
        assertThat(Math.abs(((p >> 16) & 0xFF) - 0x33)).isLessThanOrEqualTo(3);
        assertThat(Math.abs((p & 0xFF) - 0xCC)).isLessThanOrEqualTo(3);
    }
}
