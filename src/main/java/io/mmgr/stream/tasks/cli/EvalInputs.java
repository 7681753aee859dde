package io.mmgr.stream.tasks.cli;

import io.mmgr.stream.artifacts.CompositeArtifactResolver;
import io.mmgr.stream.artifacts.HttpArtifactResolver;
import io.mmgr.stream.artifacts.LocalArtifactResolver;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.ArtifactException;
import io.mmgr.stream.tasks.ArtifactResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** What the {@code eval} commands read: records as JSON files, and artifacts from local files. */
public final class EvalInputs {

    private EvalInputs() {
    }

    /** A record from a JSON file with the Avro schema's field names (as {@code mmgr publish} reads a line). */
    public static <T extends SpecificRecord> T read(Path file, Class<T> type) {
        String json;
        try {
            json = Files.readString(file);
        } catch (IOException e) {
            throw new CliInputException(file + ": cannot read: " + e.getMessage());
        }
        try {
            return JsonAvro.read(json, type);
        } catch (RuntimeException e) {
            throw new CliInputException(file + ": " + e.getMessage());
        }
    }

    /**
     * File artifacts anywhere on this machine: what the family commands' adapters build (file: URIs of
     * the paths given), without the cost of the full resolver (its HTTP client takes ~0.4 s to build).
     */
    public static ArtifactResolver files() {
        return new LocalArtifactResolver(List.of(Path.of("/")), LocalArtifactResolver.DEFAULT_MAX_BYTES, spillDir());
    }

    /**
     * For samples that travel as precomputed inputs (steps, trials, text): their events name no artifact,
     * so there is nothing to read (and no spill directory to make per sample).
     */
    public static ArtifactResolver none() {
        return new ArtifactResolver() {
            @Override
            public byte[] read(ArtifactRef ref) throws ArtifactException {
                throw new ArtifactException("this sample has no artifacts: " + ref.getUri());
            }

            @Override
            public Path file(ArtifactRef ref) throws ArtifactException {
                throw new ArtifactException("this sample has no artifacts: " + ref.getUri());
            }
        };
    }

    /**
     * The stream's artifact resolver for an offline run of any event: file: artifacts anywhere on this machine (they
     * are the user's own), inline data, and no downloads.
     */
    public static ArtifactResolver resolver() {
        return CompositeArtifactResolver.standard(List.of(Path.of("/")), LocalArtifactResolver.DEFAULT_MAX_BYTES,
                spillDir(), List.of(), HttpArtifactResolver.DEFAULT_TIMEOUT);
    }

    private static Path spillDir() {
        try {
            return Files.createTempDirectory("mmgr-eval");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for artifacts", e);
        }
    }
}
