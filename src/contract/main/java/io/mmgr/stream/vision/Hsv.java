package io.mmgr.stream.vision;

/** Integer HSV helpers for colour rules (hue in degrees 0..359, saturation and value 0..255). */
public final class Hsv {

    private Hsv() {
    }

    public static int value(int r, int g, int b) {
        return Math.max(r, Math.max(g, b));
    }

    /** Saturation as (max - min) * 255 / max; 0 for black. */
    public static int saturation(int r, int g, int b) {
        int max = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        return max == 0 ? 0 : (max - min) * 255 / max;
    }

    /** Hue in degrees, or -1 for greys (max == min). */
    public static int hue(int r, int g, int b) {
        int max = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        int d = max - min;
        if (d == 0) {
            return -1;
        }
        int h;
        if (max == r) {
            h = 60 * (g - b) / d;
        } else if (max == g) {
            h = 120 + 60 * (b - r) / d;
        } else {
            h = 240 + 60 * (r - g) / d;
        }
        return h < 0 ? h + 360 : h;
    }
}
