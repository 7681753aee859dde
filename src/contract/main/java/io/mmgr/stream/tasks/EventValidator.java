package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.GenerationEvent;
import java.util.Optional;
import java.util.regex.Pattern;

/** Checks that a generation event can be scored at all, before its benchmark item is looked up. */
public final class EventValidator {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    /** Keys and store prefixes use '/', so identifiers may not. */
    private static final Pattern ID = Pattern.compile("[^/\\s][^/]*");

    private final TaskCatalog catalog;

    public EventValidator(TaskCatalog catalog) {
        this.catalog = catalog;
    }

    /** Whether {@code s} may be an identifier: no '/', not starting with a space. */
    public static boolean isId(String s) {
        return ID.matcher(s).matches();
    }

    /** The reason the event is invalid, or empty when it is fine. */
    public Optional<String> problem(GenerationEvent e) {
        for (String[] field : new String[][] {{"runId", e.getRunId()}, {"checkpointId", e.getCheckpointId()},
                {"task", e.getTask()}, {"sampleId", e.getSampleId()}}) {
            if (field[1] == null || field[1].isBlank()) {
                return Optional.of("field " + field[0] + " is empty");
            }
            if (!ID.matcher(field[1]).matches()) {
                return Optional.of("field " + field[0] + " '" + field[1] + "' may not contain '/' or start with a space");
            }
        }
        if (e.getModel() == null || e.getModel().isBlank()) {
            return Optional.of("field model is empty");
        }
        if (e.getSeed() < 0) {
            return Optional.of("seed " + e.getSeed() + " is negative");
        }
        if (e.getTrainingStep() < 0) {
            return Optional.of("trainingStep " + e.getTrainingStep() + " is negative");
        }
        Optional<TaskSpec> spec = catalog.find(e.getTask());
        if (spec.isEmpty()) {
            return Optional.of("unknown task '" + e.getTask() + "' (known: " + String.join(", ", catalog.ids()) + ")");
        }
        if (!spec.get().modalities().contains(e.getModality())) {
            return Optional.of("task " + e.getTask() + " does not accept modality '" + e.getModality()
                    + "' (accepts: " + String.join(", ", new java.util.TreeSet<>(spec.get().modalities())) + ")");
        }
        for (ArtifactRef a : e.getArtifacts()) {
            if (a.getUri() == null || a.getUri().isBlank()) {
                return Optional.of("an artifact has an empty uri");
            }
            if (a.getSha256() != null && !SHA256.matcher(a.getSha256()).matches()) {
                return Optional.of("artifact " + a.getUri() + " has a malformed sha256 (64 hex digits expected)");
            }
        }
        return Optional.empty();
    }
}
