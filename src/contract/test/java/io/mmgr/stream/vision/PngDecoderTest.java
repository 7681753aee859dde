package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.awt.image.IndexColorModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Tag;

/** The direct PNG path decodes every layout it accepts to exactly the pixels ImageIO gives. */
@Tag("unit")
class PngDecoderTest {

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of("rgb", BufferedImage.TYPE_INT_RGB),
                Arguments.of("rgba", BufferedImage.TYPE_INT_ARGB),
                Arguments.of("grey", BufferedImage.TYPE_BYTE_GRAY),
                Arguments.of("palette-8", BufferedImage.TYPE_BYTE_INDEXED),
                Arguments.of("palette-1", BufferedImage.TYPE_BYTE_BINARY),
                Arguments.of("bgr", BufferedImage.TYPE_3BYTE_BGR),
                Arguments.of("abgr", BufferedImage.TYPE_4BYTE_ABGR));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void decodesAsImageIoDoes(String name, int type) throws Exception {
        BufferedImage img = picture(type, 157, 93, new Random(name.hashCode()));
        byte[] png = png(img);
        RgbImage direct = PngDecoder.decode(png);
        assertThat(direct).as("%s is decoded directly", name).isNotNull();
        RgbImage viaImageIo = RgbImage.of(ImageIO.read(new ByteArrayInputStream(png)));
        assertThat(direct.width()).isEqualTo(157);
        assertThat(direct.height()).isEqualTo(93);
        assertThat(direct.pixels()).isEqualTo(viaImageIo.pixels());
        assertThat(ImageDecoder.decode(png, ImageDecoder.Limits.DEFAULT).pixels()).isEqualTo(viaImageIo.pixels());
    }

    @Test
    void palettesWithTwoAndFourBitsAndTransparency() throws Exception {
        for (int bits : new int[] {2, 4}) {
            int n = 1 << bits;
            byte[] r = new byte[n];
            byte[] g = new byte[n];
            byte[] b = new byte[n];
            byte[] a = new byte[n];
            for (int i = 0; i < n; i++) {
                r[i] = (byte) (i * 255 / (n - 1));
                g[i] = (byte) (255 - i * 40);
                b[i] = (byte) (i * 77);
                a[i] = (byte) (i == 0 ? 0 : 255 - i * 10);
            }
            BufferedImage img = new BufferedImage(61, 37, BufferedImage.TYPE_BYTE_BINARY, new IndexColorModel(bits, n, r, g, b, a));
            Random random = new Random(bits);
            for (int y = 0; y < 37; y++) {
                for (int x = 0; x < 61; x++) {
                    img.getRaster().setSample(x, y, 0, random.nextInt(n));
                }
            }
            byte[] png = png(img);
            RgbImage direct = PngDecoder.decode(png);
            assertThat(direct).isNotNull();
            assertThat(direct.pixels()).as("%d-bit palette", bits)
                    .isEqualTo(RgbImage.of(ImageIO.read(new ByteArrayInputStream(png))).pixels());
        }
    }

    @Test
    void brokenFilesAreClearErrors() throws Exception {
        byte[] png = png(picture(BufferedImage.TYPE_INT_RGB, 64, 64, new Random(1)));
        assertThatThrownBy(() -> ImageDecoder.decode(Arrays.copyOf(png, png.length / 2), ImageDecoder.Limits.DEFAULT))
                .isInstanceOf(MediaException.class).hasMessageContaining("truncated or corrupt");
        byte[] flipped = png.clone();
        flipped[png.length / 2] ^= 0x55;
        assertThatThrownBy(() -> ImageDecoder.decode(flipped, ImageDecoder.Limits.DEFAULT))
                .isInstanceOf(MediaException.class).hasMessageContaining("truncated or corrupt");
        assertThatThrownBy(() -> ImageDecoder.decode(Arrays.copyOf(png, 20), ImageDecoder.Limits.DEFAULT))
                .isInstanceOf(MediaException.class);
    }

    /** Noise, gradients and flat areas, so the encoder uses every row filter. */
    static BufferedImage picture(int type, int w, int h, Random random) {
        BufferedImage img = new BufferedImage(w, h, type);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int rgb;
                if (y < h / 3) {
                    rgb = random.nextInt(1 << 24);
                } else if (y < 2 * h / 3) {
                    rgb = ((x * 255 / w) << 16) | ((y * 255 / h) << 8) | ((x + y) & 0xFF);
                } else {
                    rgb = x < w / 2 ? 0x000000 : 0xFFFFFF;
                }
                int alpha = (x * 7 + y * 3) % 256;
                img.setRGB(x, y, (alpha << 24) | rgb);
            }
        }
        return img;
    }

    static byte[] png(BufferedImage img) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ImageIO.write(img, "png", out)).isTrue();
        return out.toByteArray();
    }
}
