package io.mmgr.stream.judge;

/**
 * How generations are shown to the judge.
 *
 * @param frames         frames sampled from a video (evenly, first to last)
 * @param nativeVideo    send videos whole where the protocol takes them (Gemini)
 * @param tokensPerImage input tokens assumed per image when estimating a call for the token quota
 */
public record MediaSettings(int frames, boolean nativeVideo, int tokensPerImage) {

    public MediaSettings {
        if (frames < 1) {
            throw new IllegalArgumentException("the judge's frames per video must be positive, not " + frames);
        }
        if (tokensPerImage < 0) {
            throw new IllegalArgumentException("the judge's tokens per image must not be negative");
        }
    }

    /** 16 frames, no native video, 800 tokens an image. */
    public static MediaSettings defaults() {
        return new MediaSettings(16, false, 800);
    }

    public MediaSettings withFrames(int n, boolean videoNatively) {
        return new MediaSettings(n, videoNatively, tokensPerImage);
    }
}
