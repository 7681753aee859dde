package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The event and benchmark item an {@code eval} input adapter builds for one case, and their builders:
 * run, checkpoint and sample {@value #CLI}, so intake joins them and refuses nothing for its ids.
 */
public record EvalSample(GenerationEvent event, BenchmarkItem item) {

    /** Identifiers of the event and item an adapter builds: intake refuses blank ones and any '/'. */
    public static final String CLI = "cli";

    /**
     * The event for one output file: the modality from the file's media type, the model given or
     * {@value #CLI} (intake refuses a blank one).
     */
    public static GenerationEvent event(String task, String model, Path output) {
        return builder(task, model, modality(output)).setArtifacts(List.of(artifact("output", output))).build();
    }

    /** A local file as an artifact of an event or item: its absolute file: URI, the media type its name implies. */
    public static ArtifactRef artifact(String role, Path file) {
        return ArtifactRef.newBuilder().setRole(role).setUri(file.toAbsolutePath().normalize().toUri().toString())
                .setMediaType(mediaType(file)).build();
    }

    /** The event of a sample that travels as precomputed inputs (steps, trials, text), no artifact. */
    public static GenerationEvent event(String task, String modality, GenerationInputs inputs) {
        return builder(task, null, modality).setInputs(inputs).build();
    }

    /** The benchmark item of that sample: same task and sample id, so intake would join them. */
    public static BenchmarkItem item(String task, GroundTruth groundTruth) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId(CLI).setGroundTruth(groundTruth).build();
    }

    private static GenerationEvent.Builder builder(String task, String model, String modality) {
        return GenerationEvent.newBuilder()
                .setRunId(CLI).setModel(model == null || model.isBlank() ? CLI : model)
                .setCheckpointId(CLI).setTrainingStep(0)
                .setTask(task).setSampleId(CLI).setModality(modality)
                .setProducedAt(Instant.now());
    }

    /** video for a video file, else image. */
    public static String modality(Path output) {
        return mediaType(output).startsWith("video/") ? "video" : "image";
    }

    /** The media type an output file's name implies; PNG when it implies none. */
    public static String mediaType(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".mp4") || name.endsWith(".m4v") || name.endsWith(".mov")) {
            return "video/mp4";
        }
        if (name.endsWith(".webm") || name.endsWith(".mkv")) {
            return "video/webm";
        }
        if (name.endsWith(".jpg") || name.endsWith(".jpeg")) {
            return "image/jpeg";
        }
        return "image/png";
    }
}
