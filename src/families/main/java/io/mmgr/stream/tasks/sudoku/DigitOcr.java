package io.mmgr.stream.tasks.sudoku;

import io.mmgr.stream.vision.OcrException;

import static org.bytedeco.tesseract.global.tesseract.OEM_LSTM_ONLY;
import static org.bytedeco.tesseract.global.tesseract.PSM_RAW_LINE;
import static org.bytedeco.tesseract.global.tesseract.PSM_SINGLE_CHAR;
import static org.bytedeco.tesseract.global.tesseract.PSM_SINGLE_LINE;
import static org.bytedeco.tesseract.global.tesseract.PSM_SINGLE_WORD;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.tesseract.TessBaseAPI;

/**
 * Reads one printed digit (1-9) from a {@link Glyph} with Tesseract's LSTM engine. Not thread-safe:
 * one instance per thread, kept for many reads (start-up costs ~0.1 s), closed when done.
 *
 * <p>Tesseract's single-character modes are fragile: its LSTM model reads lines and, given a lone
 * glyph, often returns nothing (or a letter, without a whitelist). So each glyph is normalised (scaled
 * to a fixed cap height, binarised, padded) and written two or three times side by side, which gives the
 * model the line context it was trained on; the copies must agree. Attempts run in order until one
 * is unanimous and confident; otherwise the copies' votes, weighted by confidence, decide.
 *
 * <p>The English model ({@code eng.traineddata}) is loaded from the class path, where the build puts
 * it (see pom.xml), or from the file named by the system property {@value #MODEL_PROPERTY}.
 */
public final class DigitOcr implements AutoCloseable {

    public static final String MODEL_PROPERTY = "mmgr.tessdata";
    static final String MODEL_RESOURCE = "/io/mmgr/stream/vision/tessdata/eng.traineddata";

    /** The digits the engine may answer; 0 is left out, since no Sudoku cell holds it. */
    static final String WHITELIST = "123456789";

    /** One way of presenting the glyph to Tesseract: cap height in px, copies, gap between copies. */
    record Attempt(int capHeight, int copies, int gapPercent, boolean binarize, int pageSegMode) {
    }

    /**
     * Tried in order; measured on 810 glyphs (10 fonts x 3 styles x 3 sizes x 9 digits), each alone:
     * two anti-aliased copies as a line at a 32 px cap height read 807 (1.1 ms each; 28 and 36 px read
     * about as well, 40 px worse; binarised or single copies 744-792); with the later attempts the
     * cascade read 809. Binarised copies as a word and the lone glyph in single-character mode are last
     * resorts. Every failure seen was "nothing read", never a different digit. Raw-line mode (no layout
     * analysis) comes second: on clean heavy glyphs in a board (an Open Sans Extrabold 8, 114 px) every
     * other mode, with or without the whitelist, returned no text at all, and raw-line mode read it.
     */
    static final List<Attempt> ATTEMPTS = List.of(
            new Attempt(32, 2, 40, false, PSM_SINGLE_LINE),
            new Attempt(32, 2, 40, false, PSM_RAW_LINE),
            new Attempt(28, 3, 40, false, PSM_SINGLE_LINE),
            new Attempt(24, 2, 40, false, PSM_RAW_LINE),
            new Attempt(32, 3, 60, true, PSM_SINGLE_WORD),
            new Attempt(32, 1, 40, false, PSM_RAW_LINE),
            new Attempt(24, 1, 0, true, PSM_SINGLE_CHAR));

    /** A digit 1-9, or 0 when none was read; confidence 0-100; attempts used. */
    public record Reading(int digit, int confidence, int attempts) {
        public boolean found() {
            return digit > 0;
        }
    }

    private static volatile byte[] model;

    private final TessBaseAPI api;
    private final BytePointer modelBuffer;
    private final List<Attempt> attempts;
    private boolean closed;

    private DigitOcr(TessBaseAPI api, BytePointer modelBuffer, List<Attempt> attempts) {
        this.api = api;
        this.modelBuffer = modelBuffer;
        this.attempts = attempts;
    }

    /** Starts an engine; throws {@link OcrException} when the language data cannot be found or loaded. */
    public static DigitOcr open() {
        return open(ATTEMPTS);
    }

    static DigitOcr open(List<Attempt> attempts) {
        byte[] data = model();
        BytePointer buffer = new BytePointer(data);
        TessBaseAPI api = new TessBaseAPI();
        // In-memory initialisation: no tessdata directory on disk is needed, the jar carries the model.
        int rc = api.Init(buffer, data.length, new BytePointer("eng"), OEM_LSTM_ONLY,
                (PointerPointer<?>) null, 0, null, null, false, null);
        if (rc != 0) {
            api.close();
            buffer.close();
            throw new OcrException("Tesseract could not load its English model (eng.traineddata)");
        }
        api.SetVariable("tessedit_char_whitelist", WHITELIST);
        api.SetVariable("debug_file", "/dev/null"); // keeps Tesseract's warnings off stderr
        return new DigitOcr(api, buffer, attempts);
    }

    /** Reads the glyph's digit. */
    public Reading read(Glyph glyph) {
        if (closed) {
            throw new IllegalStateException("OCR engine is closed");
        }
        double[] votes = new double[10];
        int used = 0;
        for (Attempt a : attempts) {
            used++;
            Rendered r = render(glyph, a);
            api.SetPageSegMode(a.pageSegMode());
            api.SetImage(r.pixels(), r.width(), r.height(), 1, r.width());
            api.SetSourceResolution(300); // glyphs have no physical size; a nominal one avoids Tesseract's guess
            BytePointer text = api.GetUTF8Text();
            String s = text == null ? "" : text.getString();
            if (text != null) {
                text.deallocate();
            }
            int confidence = Math.max(0, api.MeanTextConf());
            int[] counts = new int[10];
            int n = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c >= '1' && c <= '9') {
                    counts[c - '0']++;
                    n++;
                }
            }
            if (n == 0) {
                continue;
            }
            int top = 1;
            for (int d = 2; d <= 9; d++) {
                if (counts[d] > counts[top]) {
                    top = d;
                }
            }
            boolean unanimous = counts[top] == n && n >= Math.min(2, a.copies()) && n <= a.copies();
            if (unanimous && confidence >= SudokuThresholds.ACCEPT_CONFIDENCE) {
                return new Reading(top, confidence, used);
            }
            for (int d = 1; d <= 9; d++) {
                votes[d] += confidence * counts[d] / (double) Math.max(n, a.copies());
            }
        }
        int best = 0;
        for (int d = 1; d <= 9; d++) {
            if (votes[d] > 0 && (best == 0 || votes[d] > votes[best])) {
                best = d;
            }
        }
        return best == 0 ? new Reading(0, 0, used) : new Reading(best, (int) Math.round(votes[best]), used);
    }

    record Rendered(int width, int height, byte[] pixels) {
    }

    /** Black-on-white 8-bit image: the glyph scaled to the cap height, copied side by side, padded. */
    static Rendered render(Glyph g, Attempt a) {
        int cap = a.capHeight();
        double scale = cap / (double) g.height();
        int gw = Math.max(1, (int) Math.round(g.width() * scale));
        if (gw > cap * 2) { // a wide smear: bound the width instead so the image stays small
            scale = cap * 2 / (double) g.width();
            gw = cap * 2;
        }
        int gh = Math.max(1, (int) Math.round(g.height() * scale));
        byte[] scaled = scale(g, gw, gh);
        int pad = cap / 2;
        int gap = cap * a.gapPercent() / 100;
        int w = 2 * pad + a.copies() * gw + (a.copies() - 1) * gap;
        int h = 2 * pad + gh;
        byte[] out = new byte[w * h];
        Arrays.fill(out, (byte) 255);
        for (int c = 0; c < a.copies(); c++) {
            int ox = pad + c * (gw + gap);
            for (int y = 0; y < gh; y++) {
                int src = y * gw;
                int dst = (pad + y) * w + ox;
                for (int x = 0; x < gw; x++) {
                    int ink = scaled[src + x] & 0xFF;
                    int v = a.binarize() ? (ink >= 128 ? 0 : 255) : 255 - ink;
                    out[dst + x] = (byte) v;
                }
            }
        }
        return new Rendered(w, h, out);
    }

    /** Area-weighted (box) scaling when shrinking, bilinear when enlarging. */
    private static byte[] scale(Glyph g, int w, int h) {
        byte[] out = new byte[w * h];
        double sx = g.width() / (double) w;
        double sy = g.height() / (double) h;
        boolean shrink = sx > 1 || sy > 1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                double v;
                if (shrink) {
                    v = boxMean(g, x * sx, y * sy, (x + 1) * sx, (y + 1) * sy);
                } else {
                    v = g.bilinear((x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5);
                }
                out[y * w + x] = (byte) Math.min(255, Math.max(0, (int) Math.round(v)));
            }
        }
        return out;
    }


    private static double boxMean(Glyph g, double x0, double y0, double x1, double y1) {
        double sum = 0;
        double area = 0;
        for (int y = (int) Math.floor(y0); y < Math.min(g.height(), (int) Math.ceil(y1)); y++) {
            double wy = Math.min(y + 1, y1) - Math.max(y, y0);
            for (int x = (int) Math.floor(x0); x < Math.min(g.width(), (int) Math.ceil(x1)); x++) {
                double wx = Math.min(x + 1, x1) - Math.max(x, x0);
                double wgt = wx * wy;
                sum += g.get(x, y) * wgt;
                area += wgt;
            }
        }
        return area == 0 ? 0 : sum / area;
    }

    /** The model bytes, read once per JVM and shared by every engine (each engine copies them natively). */
    static byte[] model() {
        byte[] m = model;
        if (m != null) {
            return m;
        }
        synchronized (DigitOcr.class) {
            if (model == null) {
                model = loadModel();
            }
            return model;
        }
    }

    static byte[] loadModel() {
        String override = System.getProperty(MODEL_PROPERTY);
        try {
            if (override != null && !override.isBlank()) {
                Path p = Path.of(override);
                if (Files.isDirectory(p)) {
                    p = p.resolve("eng.traineddata");
                }
                if (!Files.isRegularFile(p)) {
                    throw new OcrException("-D" + MODEL_PROPERTY + " names " + p + ", which is not a file");
                }
                return Files.readAllBytes(p);
            }
            try (InputStream in = DigitOcr.class.getResourceAsStream(MODEL_RESOURCE)) {
                if (in == null) {
                    throw new OcrException("Tesseract's eng.traineddata is not on the class path (" + MODEL_RESOURCE
                            + "); the Maven build unpacks it: run mvn -B package, or point -D" + MODEL_PROPERTY
                            + " at an eng.traineddata file");
                }
                return in.readAllBytes();
            }
        } catch (IOException e) {
            throw new OcrException("cannot read Tesseract's eng.traineddata: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            api.End();
            api.close();
            modelBuffer.close();
        }
    }
}
