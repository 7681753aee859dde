package io.mmgr.stream.vision;

/**
 * Finds a coloured marker (an agent drawn on a map) in frames: the centroid of the largest 8-connected
 * blob of pixels within {@code tolerance} (L1 RGB distance) of the marker colour, in pixel-centre
 * coordinates of the frame, or null when no blob of at least {@code minArea} pixels shows.
 */
public final class MarkerTracker {

    private final int colour;
    private final int tolerance;
    private final int minArea;

    public MarkerTracker(int colour, int tolerance, int minArea) {
        if (tolerance < 0 || minArea < 1) {
            throw new IllegalArgumentException("tolerance must be >= 0 and minimum area >= 1");
        }
        this.colour = colour & 0xFFFFFF;
        this.tolerance = tolerance;
        this.minArea = minArea;
    }

    /** The marker's centroid {x, y} in {@code region} of the frame (frame coordinates), or null. */
    public double[] locate(RgbImage frame, Rect region) {
        int x0 = region == null ? 0 : Math.max(0, region.x());
        int y0 = region == null ? 0 : Math.max(0, region.y());
        int x1 = region == null ? frame.width() : Math.min(frame.width(), region.x() + region.width());
        int y1 = region == null ? frame.height() : Math.min(frame.height(), region.y() + region.height());
        if (x1 <= x0 || y1 <= y0) {
            return null;
        }
        Mask m = new Mask(x1 - x0, y1 - y0);
        int r0 = (colour >> 16) & 0xFF;
        int g0 = (colour >> 8) & 0xFF;
        int b0 = colour & 0xFF;
        int[] px = frame.pixels();
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                int p = px[y * frame.width() + x];
                int d = Math.abs(((p >> 16) & 0xFF) - r0) + Math.abs(((p >> 8) & 0xFF) - g0) + Math.abs((p & 0xFF) - b0);
                if (d <= tolerance) {
                    m.set(x - x0, y - y0, true);
                }
            }
        }
        Mask blob = m.largestComponent();
        if (blob.count() < minArea) {
            return null;
        }
        double[] c = blob.centroid();
        return new double[] {c[0] + x0, c[1] + y0};
    }
}
