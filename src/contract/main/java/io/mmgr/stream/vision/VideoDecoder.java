package io.mmgr.stream.vision;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameGrabber;
import org.bytedeco.javacv.Frame;
import org.bytedeco.javacv.FrameGrabber;

/**
 * Decodes MP4 / WebM (any container and codec the bundled FFmpeg reads) in-process with bounded
 * memory: the header's size, frame count and duration are checked before the first frame is
 * decoded, frames larger than {@link Limits#maxWorkingSide()} are scaled down by FFmpeg, only the
 * sampled frames are converted to RGB (or colour codes), and decoding stops after {@link Limits#maxDecodedFrames()}
 * whatever the header claimed.
 */
public final class VideoDecoder {

    static {
        avutil.av_log_set_level(avutil.AV_LOG_ERROR); // keep FFmpeg's chatter out of stdout/stderr
    }

    /**
     * @param maxDeclaredFrames  videos declaring more frames are refused
     * @param maxDurationSeconds videos declaring a longer duration are refused
     * @param maxDeclaredPixels  frames declaring more pixels are refused
     * @param maxWorkingSide     frames are scaled so their longest side is at most this
     * @param maxDecodedFrames   hard cap on frames read, for headers that under-declare
     */
    public record Limits(long maxDeclaredFrames, double maxDurationSeconds, long maxDeclaredPixels,
                         int maxWorkingSide, int maxDecodedFrames) {
        /** Ten minutes or 20 000 frames, up to 4K frames worked on at 1024 px. */
        public static final Limits DEFAULT = new Limits(20_000, 600.0, 4096L * 4096L, 1024, 20_000);
    }

    /** Receives each sampled frame; {@code index} is the frame's position in the stream. */
    @FunctionalInterface
    public interface FrameSink {
        void accept(int index, RgbImage frame) throws MediaException;
    }

    private VideoDecoder() {
    }

    /** Reads the header only. */
    public static VideoProbe probe(Path file) throws MediaException {
        FFmpegFrameGrabber grabber = open(file);
        try {
            return probeOf(grabber);
        } finally {
            close(grabber);
        }
    }

    /**
     * Decodes the video and hands {@code target} frames, evenly spaced over the declared length, to
     * the sink (all frames when the video has fewer). Returns the number of frames delivered.
     */
    public static int sample(Path file, int target, Limits limits, FrameSink sink) throws MediaException {
        return sample(file, target, limits, PixelRows::rgb, sink::accept);
    }

    /** Receives each sampled frame as raw colour codes (valid until the next frame). */
    @FunctionalInterface
    public interface CodeSink {
        void accept(int index, LabelImage frame) throws MediaException;
    }

    /**
     * As {@link #sample(Path, int, Limits, FrameSink)}, each frame converted by FFmpeg's BGR rows
     * straight to raw colour codes through {@code lut} (no RGB copy of the frame), in a buffer of at
     * least {@code width * height} bytes from {@code buffer} (the caller's, reused frame after frame).
     */
    public static int sampleCodes(Path file, int target, Limits limits, ColorLut lut, IntFunction<byte[]> buffer,
                                  CodeSink sink) throws MediaException {
        PixelRows<LabelImage> rows = PixelRows.codes(lut, buffer);
        return sample(file, target, limits, () -> rows, sink::accept);
    }

    private interface Sink<T> {
        void accept(int index, T frame) throws MediaException;
    }

    private static <T> int sample(Path file, int target, Limits limits, Supplier<PixelRows<T>> rows, Sink<T> sink)
            throws MediaException {
        if (target <= 0) {
            throw new IllegalArgumentException("target frame count must be positive");
        }
        FFmpegFrameGrabber grabber = open(file);
        try {
            VideoProbe probe = probeOf(grabber);
            check(probe, limits);
            int longest = Math.max(probe.width(), probe.height());
            if (longest > limits.maxWorkingSide()) {
                double s = limits.maxWorkingSide() / (double) longest;
                grabber.setImageWidth(Math.max(1, (int) Math.round(probe.width() * s)));
                grabber.setImageHeight(Math.max(1, (int) Math.round(probe.height() * s)));
            }
            long declared = probe.frameCount();
            int delivered = 0;
            int index = 0;
            long nextPick = 0;
            int picked = 0;
            while (index < limits.maxDecodedFrames()) {
                if (Thread.currentThread().isInterrupted()) {
                    // the evaluation's deadline passed: FFmpeg ignores interrupts, so stop between frames
                    throw new MediaException("decoding stopped after " + index + " frames: interrupted");
                }
                boolean wanted = declared <= 0 || declared <= target || index == nextPick;
                Frame frame = grabber.grabFrame(false, true, wanted, false, true);
                if (frame == null) {
                    break;
                }
                if (frame.image == null) {
                    continue;
                }
                if (wanted) {
                    sink.accept(index, convert(frame, rows.get()));
                    delivered++;
                    picked++;
                    if (declared > target) {
                        nextPick = target == 1 ? Long.MAX_VALUE
                                : Math.round(picked * (declared - 1) / (double) (target - 1));
                        if (picked >= target) {
                            nextPick = Long.MAX_VALUE;
                        }
                    }
                }
                index++;
            }
            if (index == 0) {
                throw new MediaException("video has no decodable frames");
            }
            return delivered;
        } catch (FrameGrabber.Exception e) {
            throw new MediaException("video is truncated or corrupt: " + e.getMessage(), e);
        } finally {
            close(grabber);
        }
    }

    private static void check(VideoProbe p, Limits limits) throws MediaException {
        if (p.width() <= 0 || p.height() <= 0) {
            throw new MediaException("video declares no picture size");
        }
        if ((long) p.width() * p.height() > limits.maxDeclaredPixels()) {
            throw new MediaException("video declares " + p.width() + "x" + p.height()
                    + " frames, over the limit of " + limits.maxDeclaredPixels() + " pixels");
        }
        if (p.frameCount() > limits.maxDeclaredFrames()) {
            throw new MediaException("video declares " + p.frameCount() + " frames, over the limit of "
                    + limits.maxDeclaredFrames());
        }
        if (p.durationSeconds() > limits.maxDurationSeconds()) {
            throw new MediaException(String.format(java.util.Locale.ROOT,
                    "video declares %.1f s, over the limit of %.0f s", p.durationSeconds(), limits.maxDurationSeconds()));
        }
    }

    private static FFmpegFrameGrabber open(Path file) throws MediaException {
        if (!Files.isRegularFile(file)) {
            throw new MediaException("video file not found: " + file);
        }
        FFmpegFrameGrabber grabber = new FFmpegFrameGrabber(file.toFile());
        grabber.setPixelFormat(avutil.AV_PIX_FMT_BGR24);
        // one decoding thread: parallelism is the evaluation pool's to bound (a thread per video), so a
        // video never takes every core from the light work beside it
        grabber.setVideoOption("threads", "1");
        try {
            grabber.start();
        } catch (FrameGrabber.Exception | RuntimeException e) {
            close(grabber);
            throw new MediaException("not a decodable video (expected MP4 or WebM): " + e.getMessage(), e);
        }
        if (!grabber.hasVideo()) {
            close(grabber);
            throw new MediaException("file has no video stream");
        }
        return grabber;
    }

    private static VideoProbe probeOf(FFmpegFrameGrabber g) {
        double fps = g.getFrameRate();
        long micros = g.getLengthInTime();
        double seconds = micros > 0 ? micros / 1e6 : 0;
        long frames = g.getLengthInVideoFrames();
        if (frames <= 0 && seconds > 0 && fps > 0) {
            frames = Math.round(seconds * fps);
        }
        return new VideoProbe(g.getFormat(), g.getVideoCodecName(), g.getImageWidth(), g.getImageHeight(),
                Math.max(0, frames), fps, seconds);
    }

    private static <T> T convert(Frame frame, PixelRows<T> rows) {
        int w = frame.imageWidth;
        int h = frame.imageHeight;
        int stride = frame.imageStride;
        ByteBuffer buf = (ByteBuffer) frame.image[0];
        rows.size(w, h);
        byte[] row = new byte[w * 3];
        for (int y = 0; y < h; y++) {
            buf.get(y * stride, row, 0, row.length);
            rows.row(y, row, 0, true);
        }
        return rows.image();
    }

    private static void close(FFmpegFrameGrabber grabber) {
        try {
            grabber.close();
        } catch (FrameGrabber.Exception | RuntimeException ignored) {
            // nothing useful to report after the answer is known
        }
    }
}
