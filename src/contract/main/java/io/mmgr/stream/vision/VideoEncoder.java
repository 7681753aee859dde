package io.mmgr.stream.vision;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.bytedeco.ffmpeg.global.avcodec;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacv.FFmpegFrameRecorder;
import org.bytedeco.javacv.Frame;
import org.bytedeco.javacv.FrameRecorder;

/**
 * Writes RGB frames to MP4 (H.264 through OpenH264, or MPEG-4 Part 2 when that encoder is absent;
 * the bundled FFmpeg has no x264) or WebM (VP9, else VP8). Used by generators and test fixtures.
 */
public final class VideoEncoder implements AutoCloseable {

    public enum Container {
        MP4("mp4", List.of("libopenh264", "mpeg4")),
        WEBM("webm", List.of("libvpx-vp9", "libvpx"));

        final String format;
        final List<String> codecs;

        Container(String format, List<String> codecs) {
            this.format = format;
            this.codecs = codecs;
        }
    }

    static {
        avutil.av_log_set_level(avutil.AV_LOG_ERROR);
    }

    private final FFmpegFrameRecorder recorder;
    private final Frame frame;
    private final String codec;
    private final int width;
    private final int height;

    private VideoEncoder(FFmpegFrameRecorder recorder, String codec, int width, int height) {
        this.recorder = recorder;
        this.codec = codec;
        this.width = width;
        this.height = height;
        this.frame = new Frame(width, height, Frame.DEPTH_UBYTE, 3);
    }

    /** Opens an encoder with the container's preferred available codec. Even sizes suit YUV 4:2:0 best. */
    public static VideoEncoder open(Path out, int width, int height, double fps, Container container)
            throws MediaException {
        return open(out, width, height, fps, container, null);
    }

    /** As {@link #open(Path, int, int, double, Container)} with an explicit codec name (null: preferred). */
    public static VideoEncoder open(Path out, int width, int height, double fps, Container container, String codec)
            throws MediaException {
        String chosen = codec;
        if (chosen == null) {
            chosen = container.codecs.stream()
                    .filter(c -> avcodec.avcodec_find_encoder_by_name(c) != null)
                    .findFirst()
                    .orElseThrow(() -> new MediaException("no encoder available for " + container));
        }
        FFmpegFrameRecorder r = new FFmpegFrameRecorder(out.toFile(), width, height, 0);
        r.setFormat(container.format);
        r.setVideoCodecName(chosen);
        r.setFrameRate(fps);
        r.setPixelFormat(avutil.AV_PIX_FMT_YUV420P);
        r.setVideoQuality(chosen.startsWith("libvpx") ? 10 : 2); // near-lossless: fixtures test geometry, not codecs
        if (chosen.equals("libopenh264")) {
            r.setVideoBitrate(width * height * 8);
        }
        try {
            r.start();
        } catch (FrameRecorder.Exception | RuntimeException e) {
            throw new MediaException("cannot start " + chosen + " encoder: " + e.getMessage(), e);
        }
        return new VideoEncoder(r, chosen, width, height);
    }

    public String codec() {
        return codec;
    }

    public void write(RgbImage image) throws MediaException {
        if (image.width() != width || image.height() != height) {
            throw new IllegalArgumentException("frame is " + image.width() + "x" + image.height()
                    + ", encoder expects " + width + "x" + height);
        }
        ByteBuffer buf = (ByteBuffer) frame.image[0];
        int stride = frame.imageStride;
        int[] px = image.pixels();
        byte[] row = new byte[width * 3];
        for (int y = 0; y < height; y++) {
            for (int x = 0, j = 0; x < width; x++, j += 3) {
                int p = px[y * width + x];
                row[j] = (byte) p;
                row[j + 1] = (byte) (p >> 8);
                row[j + 2] = (byte) (p >> 16);
            }
            buf.put(y * stride, row, 0, row.length);
        }
        try {
            recorder.record(frame, avutil.AV_PIX_FMT_BGR24);
        } catch (FrameRecorder.Exception e) {
            throw new MediaException("cannot encode frame: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws MediaException {
        try {
            recorder.stop();
            recorder.release();
        } catch (FrameRecorder.Exception e) {
            throw new MediaException("cannot finish video: " + e.getMessage(), e);
        }
    }
}
