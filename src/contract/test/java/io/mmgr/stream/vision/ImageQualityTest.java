package io.mmgr.stream.vision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** SSIM and PSNR against their closed forms on images whose statistics are known exactly. */
@Tag("unit")
class ImageQualityTest {

    private static RgbImage grey(int w, int h, int v) {
        return RgbImage.filled(w, h, v << 16 | v << 8 | v);
    }

    /** A checkerboard of +d / -d on a flat grey: zero-mean noise of variance exactly d^2, no clipping. */
    private static RgbImage checkerNoise(RgbImage base, int d) {
        RgbImage out = base.copy();
        for (int y = 0; y < base.height(); y++) {
            for (int x = 0; x < base.width(); x++) {
                int p = base.get(x, y);
                int s = ((x + y) & 1) == 0 ? d : -d;
                int r = ((p >> 16) & 0xFF) + s;
                int g = ((p >> 8) & 0xFF) + s;
                int b = (p & 0xFF) + s;
                out.set(x, y, r << 16 | g << 8 | b);
            }
        }
        return out;
    }

    @Test
    void identicalImages() {
        RgbImage a = checkerNoise(grey(40, 30, 120), 30);
        assertThat(ImageQuality.ssim(a, a.copy())).isCloseTo(1.0, within(1e-12));
        assertThat(ImageQuality.psnr(a, a.copy())).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(ImageQuality.mse(a, a.copy())).isZero();
    }

    @Test
    void noiseOfKnownVariance() {
        RgbImage clean = grey(48, 40, 128);
        for (int d : new int[] {2, 5, 20}) {
            RgbImage noisy = checkerNoise(clean, d);
            assertThat(ImageQuality.mse(clean, noisy)).isEqualTo((double) d * d);
            assertThat(ImageQuality.psnr(clean, noisy)).isCloseTo(10 * Math.log10(255.0 * 255 / (d * d)), within(1e-12));
            // flat reference: sigma_x = 0, sigma_xy = 0, means equal (the window's Gaussian average of the
            // checkerboard is ~1e-5 d), sigma_y^2 = d^2: SSIM = C2 / (d^2 + C2)
            double c2 = Math.pow(0.03 * 255, 2);
            assertThat(ImageQuality.ssim(clean, noisy)).isCloseTo(c2 / (d * d + c2), within(1e-6));
        }
    }

    @Test
    void ssimOfABrightnessShift() {
        // two flat images: every variance and covariance is 0, so the contrast-structure factor is
        // C2 / C2 and SSIM is the luminance term (2 m1 m2 + C1) / (m1^2 + m2^2 + C1)
        RgbImage flat = grey(30, 30, 100);
        RgbImage shifted = grey(30, 30, 140);
        double c1 = Math.pow(0.01 * 255, 2);
        double expected = (2 * 100.0 * 140 + c1) / (100.0 * 100 + 140.0 * 140 + c1);
        assertThat(ImageQuality.ssim(flat, shifted)).isCloseTo(expected, within(1e-12));
    }

    @Test
    void refusesMismatchedOrTinyImages() {
        assertThatThrownBy(() -> ImageQuality.ssim(grey(20, 20, 0), grey(21, 20, 0))).hasMessageContaining("differ");
        assertThatThrownBy(() -> ImageQuality.ssim(grey(10, 10, 0), grey(10, 10, 0))).hasMessageContaining("11x11");
    }

    @Test
    void tracksTheLargestBlobOfTheMarkerColour() {
        RgbImage map = RgbImage.filled(60, 40, 0xFFFFFF);
        for (int y = 10; y < 14; y++) {
            for (int x = 20; x < 24; x++) {
                map.set(x, y, 0x1060F0);
            }
        }
        map.set(50, 30, 0x1060F0); // a stray pixel of the same colour
        double[] c = new MarkerTracker(0x1060F0, 40, 4).locate(map, null);
        assertThat(c).containsExactly(new double[] {22.0, 12.0}, within(1e-9));
        assertThat(new MarkerTracker(0x1060F0, 40, 4).locate(map, new Rect(40, 20, 20, 20))).isNull();
    }
}
