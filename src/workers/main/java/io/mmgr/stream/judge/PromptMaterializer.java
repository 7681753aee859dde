package io.mmgr.stream.judge;

import io.mmgr.stream.vision.ImageEncoder;
import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.ProviderCall;
import io.mmgr.stream.tasks.JudgePrompt;
import io.mmgr.stream.vision.MediaException;
import io.mmgr.stream.vision.RgbImage;
import io.mmgr.stream.vision.VideoDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a rubric's prompt into a provider call: images inline as they are, a generated video either
 * whole (where the protocol takes video) or as evenly sampled frames from the first to the last
 * (JPEG). The cache key is computed first from digests alone, so a cache hit never decodes a video.
 */
final class PromptMaterializer {

    private final ArtifactResolver artifacts;
    private final int frames;
    private final boolean nativeVideo;

    PromptMaterializer(ArtifactResolver artifacts, int frames, boolean nativeVideo) {
        this.artifacts = artifacts;
        this.frames = frames;
        this.nativeVideo = nativeVideo;
    }

    /**
     * The cache key: the request configuration (key format, protocol, model, request parameters,
     * structured-output mode; see {@link JudgeSettings#requestConfiguration()}), rubric version, modality,
     * the system text, every text part and every media part's label and SHA-256 (verified when the bytes
     * are read), and how videos are sent. Whatever changes the answer changes the key.
     */
    String cacheKey(String configuration, String rubricVersion, String modality, JudgePrompt prompt) throws ArtifactException {
        StringBuilder b = new StringBuilder();
        b.append(configuration).append('\u0000').append(rubricVersion).append('\u0000').append(modality).append('\u0000')
                .append(prompt.system()).append('\u0000');
        for (JudgePrompt.Part p : prompt.parts()) {
            if (p instanceof JudgePrompt.Text t) {
                b.append("T:").append(t.text());
            } else if (p instanceof JudgePrompt.Media m) {
                String digest = m.artifact().getSha256() != null ? m.artifact().getSha256().toLowerCase(java.util.Locale.ROOT)
                        : Digests.sha256(artifacts.read(m.artifact()));
                b.append("M:").append(m.label()).append('#').append(digest);
                if (m.video()) {
                    b.append(nativeVideo ? "|native" : "|frames=" + frames);
                }
            }
            b.append('\u0000');
        }
        return Digests.sha256(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The call, with every artifact read and verified and videos sampled. */
    ProviderCall call(String model, JudgePrompt prompt, Map<String, Object> schema, ModelProfile profile)
            throws ArtifactException, MediaException {
        List<ProviderCall.Part> parts = new ArrayList<>();
        for (JudgePrompt.Part p : prompt.parts()) {
            if (p instanceof JudgePrompt.Text t) {
                parts.add(new ProviderCall.Text(t.text()));
            } else if (p instanceof JudgePrompt.Media m) {
                if (m.video() && !nativeVideo) {
                    addFrames(m, parts);
                } else {
                    parts.add(new ProviderCall.Text("[" + m.label() + (m.video() ? " (video)" : "") + "]"));
                    parts.add(new ProviderCall.Media(m.artifact().getMediaType(), artifacts.read(m.artifact())));
                }
            }
        }
        return new ProviderCall(model, prompt.system(), parts, schema, profile);
    }

    private void addFrames(JudgePrompt.Media m, List<ProviderCall.Part> parts) throws ArtifactException, MediaException {
        List<int[]> indices = new ArrayList<>();
        List<byte[]> jpegs = new ArrayList<>();
        VideoDecoder.sample(artifacts.file(m.artifact()), frames, VideoDecoder.Limits.DEFAULT, (index, frame) -> {
            indices.add(new int[] {index});
            jpegs.add(jpeg(frame));
        });
        parts.add(new ProviderCall.Text("[" + m.label() + ": " + jpegs.size()
                + " frames sampled evenly in time order, the last being the video's final frame]"));
        for (int i = 0; i < jpegs.size(); i++) {
            parts.add(new ProviderCall.Text("frame " + (i + 1) + " of " + jpegs.size() + " (video frame #" + indices.get(i)[0] + ")"));
            parts.add(new ProviderCall.Media("image/jpeg", jpegs.get(i)));
        }
    }

    static byte[] jpeg(RgbImage frame) throws MediaException {
        try {
            return ImageEncoder.jpeg(frame, 90);
        } catch (java.io.UncheckedIOException e) {
            throw new MediaException("cannot encode a video frame: " + e.getCause().getMessage(), e);
        }
    }

}
