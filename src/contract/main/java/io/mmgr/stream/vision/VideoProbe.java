package io.mmgr.stream.vision;

/**
 * What a video's container header declares, read before any frame is decoded.
 *
 * @param frameCount declared frames (from the stream's frame count, or duration x frame rate); 0 if unknown
 */
public record VideoProbe(String format, String codec, int width, int height, long frameCount,
                         double frameRate, double durationSeconds) {
}
