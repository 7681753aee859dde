package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import java.util.List;
import java.util.Objects;

/**
 * What a rubric asks the judge: system instructions and an ordered list of text and media parts.
 * Media stay claim-check references here; the judge worker reads, verifies and encodes them.
 *
 * @param system instructions (the judge's role and the answer format)
 * @param parts  the user turn, in order
 */
public record JudgePrompt(String system, List<Part> parts) {

    public JudgePrompt {
        Objects.requireNonNull(system);
        parts = List.copyOf(parts);
    }

    /** A piece of the user turn. */
    public sealed interface Part {
    }

    public record Text(String text) implements Part {
        public Text {
            Objects.requireNonNull(text);
        }
    }

    /**
     * An image or a video.
     *
     * @param label      what it is, e.g. {@code generation}, {@code ground-truth solution}
     * @param artifact   where its bytes are (digest-verified when read)
     * @param generation whether it is the generation being judged (a video generation may be sent as frames)
     */
    public record Media(String label, ArtifactRef artifact, boolean generation) implements Part {
        public Media {
            Objects.requireNonNull(label);
            Objects.requireNonNull(artifact);
        }

        public boolean video() {
            return artifact.getMediaType() != null && artifact.getMediaType().startsWith("video/");
        }
    }
}
