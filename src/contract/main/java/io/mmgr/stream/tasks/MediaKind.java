package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.contract.CostClass;
import java.util.Locale;

/**
 * What an artifact holds, as the evaluators that decode it decide: by its declared media type
 * ({@code image/*}, {@code video/*}), and where that says neither (no type, or a generic one such as
 * {@code application/octet-stream}), by the generation's modality when the caller passes one.
 */
public enum MediaKind {
    IMAGE,
    VIDEO,
    /** Neither an image nor a video: evaluators that need pixels refuse it. */
    OTHER;

    /** By the declared media type alone. */
    public static MediaKind of(ArtifactRef artifact) {
        return of(artifact, null);
    }

    /** By the declared media type; when it names neither kind, by the event's modality ("image", "video"). */
    public static MediaKind of(ArtifactRef artifact, String modality) {
        String type = artifact.getMediaType() == null ? "" : artifact.getMediaType().toLowerCase(Locale.ROOT);
        if (type.startsWith("video/")) {
            return VIDEO;
        }
        if (type.startsWith("image/")) {
            return IMAGE;
        }
        if ("video".equals(modality)) {
            return VIDEO;
        }
        return "image".equals(modality) ? IMAGE : OTHER;
    }

    public boolean isVideo() {
        return this == VIDEO;
    }

    public boolean isImage() {
        return this == IMAGE;
    }

    /** An image or a video. */
    public boolean isMedia() {
        return this != OTHER;
    }

    /** The cost of decoding this one artifact: VIDEO for a video, IMAGE otherwise (a refused one costs nothing more). */
    public CostClass costClass() {
        return this == VIDEO ? CostClass.VIDEO : CostClass.IMAGE;
    }
}
