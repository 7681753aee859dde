package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.TaskFamily;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema change that is not backward compatible with a released version fails the build; so
 * does a new schema without a released copy. How to release: schemas/README.md.
 */
@Tag("unit")
class SchemaEvolutionTest {

    private static final Path SCHEMAS = Paths.get("schemas");

    @Test
    void everyCurrentSchemaReadsDataOfEveryReleasedVersion() throws IOException {
        SchemaEvolutionCheck.Report report = SchemaEvolutionCheck.check(SCHEMAS);

        assertThat(report.problems()).isEmpty();
        assertThat(report.comparisons()).as("one comparison per released file").isEqualTo(releasedFiles(SCHEMAS));
        assertThat(report.comparisons()).isGreaterThanOrEqualTo(currentFiles(SCHEMAS));
    }

    /** A family's payload schemas (FamilyPayload: the .avsc files beside its classes, released/ below them) keep the same rule. */
    @Test
    void everyFamilysPayloadSchemaReadsDataOfEveryReleasedVersion() throws Exception {
        int folders = 0;
        for (TaskFamily family : TaskFamily.installed()) {
            // the family's own resources folder (test classes may share its package on another root)
            Path dir = Path.of(family.getClass().getProtectionDomain().getCodeSource().getLocation().toURI())
                    .resolve(family.getClass().getPackageName().replace('.', '/'));
            try (Stream<Path> files = Files.list(dir)) {
                if (files.noneMatch(p -> p.toString().endsWith(".avsc"))) {
                    continue;
                }
            }
            folders++;
            SchemaEvolutionCheck.Report report = SchemaEvolutionCheck.check(dir);
            assertThat(report.problems()).as("%s", dir).isEmpty();
            assertThat(report.comparisons()).as("%s", dir).isEqualTo(releasedFiles(dir)).isGreaterThanOrEqualTo(currentFiles(dir));
        }
        assertThat(folders).as("families with a payload schema (maze at least)").isGreaterThanOrEqualTo(1);
    }

    @Test
    void aRequiredFieldWithoutDefaultIsCaught(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        edit(schemas.resolve("GenerationEvent.avsc"), "{\"name\": \"runId\", \"type\": \"string\"},",
                "{\"name\": \"runId\", \"type\": \"string\"}, {\"name\": \"priority\", \"type\": \"int\"},");

        SchemaEvolutionCheck.Report report = SchemaEvolutionCheck.check(schemas);

        assertThat(report.problems()).singleElement().asString()
                .startsWith("GenerationEvent.avsc cannot read data written with released/GenerationEvent.v1.avsc")
                .contains("READER_FIELD_MISSING_DEFAULT_VALUE").contains("priority");
    }

    @Test
    void aTypeChangeInAReferencedTypeIsCaughtAtThatType(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        edit(schemas.resolve("Pose.avsc"), "{\"name\": \"x\", \"type\": \"double\"}", "{\"name\": \"x\", \"type\": \"string\"}");

        SchemaEvolutionCheck.Report report = SchemaEvolutionCheck.check(schemas);

        assertThat(report.problems()).singleElement().asString()
                .startsWith("Pose.avsc cannot read data written with released/Pose.v1.avsc")
                .contains("TYPE_MISMATCH").contains("/fields/1/type");
    }

    @Test
    void addingAnOptionalFieldWithDefaultPasses(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        edit(schemas.resolve("GenerationEvent.avsc"), "{\"name\": \"runId\", \"type\": \"string\"},",
                "{\"name\": \"runId\", \"type\": \"string\"}, {\"name\": \"priority\", \"type\": [\"null\", \"int\"], \"default\": null},");

        assertThat(SchemaEvolutionCheck.check(schemas).problems()).isEmpty();
    }

    @Test
    void everyReleasedVersionIsComparedNotOnlyTheLatest(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        // v2 was released with a required "unit"; the current schema equals v2, so only v1 breaks
        Path current = schemas.resolve("MetricStat.avsc");
        edit(current, "{\"name\": \"count\", \"type\": \"long\"}",
                "{\"name\": \"count\", \"type\": \"long\"}, {\"name\": \"unit\", \"type\": \"string\"}");
        Files.copy(current, schemas.resolve("released/MetricStat.v2.avsc"));

        SchemaEvolutionCheck.Report report = SchemaEvolutionCheck.check(schemas);

        assertThat(report.problems()).singleElement().asString()
                .contains("released/MetricStat.v1.avsc").contains("unit");
        assertThat(report.comparisons()).isEqualTo(releasedFiles(SCHEMAS) + 1);
    }

    @Test
    void aNewSchemaMustBeReleasedWithIt(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        Files.writeString(schemas.resolve("Heartbeat.avsc"),
                "{\"type\": \"record\", \"name\": \"Heartbeat\", \"namespace\": \"io.mmgr.stream.avro\","
                        + " \"fields\": [{\"name\": \"at\", \"type\": \"long\"}]}");

        assertThat(SchemaEvolutionCheck.check(schemas).problems()).containsExactly(
                "Heartbeat.avsc has no released version: copy it to released/Heartbeat.v1.avsc");
    }

    @Test
    void misnamedOrOrphanedReleasedFilesAreReported(@TempDir Path dir) throws IOException {
        Path schemas = copyOfSchemas(dir);
        Files.copy(schemas.resolve("Pose.avsc"), schemas.resolve("released/Pose-v2.avsc"));
        Files.copy(schemas.resolve("Pose.avsc"), schemas.resolve("released/Posture.v1.avsc"));
        Files.copy(schemas.resolve("RobotTrial.avsc"), schemas.resolve("released/Pose.v2.avsc"));

        assertThat(SchemaEvolutionCheck.check(schemas).problems()).containsExactlyInAnyOrder(
                "released/Pose-v2.avsc is not named <Schema>.v<N>.avsc",
                "released/Posture.v*.avsc has no current Posture.avsc: delete the released copies with the schema,"
                        + " deliberately",
                "released/Pose.v2.avsc defines io.mmgr.stream.avro.RobotTrial, not io.mmgr.stream.avro.Pose");
    }

    private static Path copyOfSchemas(Path dir) throws IOException {
        Path copy = dir.resolve("schemas");
        Files.createDirectories(copy.resolve("released"));
        try (Stream<Path> files = Files.walk(SCHEMAS)) {
            for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".avsc"))::iterator) {
                Files.copy(p, copy.resolve(SCHEMAS.relativize(p).toString()));
            }
        }
        return copy;
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertThat(text).as("fixture text in %s", file.getFileName()).contains(from);
        Files.writeString(file, text.replace(from, to));
    }

    private static int releasedFiles(Path schemas) throws IOException {
        try (Stream<Path> files = Files.list(schemas.resolve("released"))) {
            return (int) files.filter(p -> p.toString().endsWith(".avsc")).count();
        }
    }

    private static int currentFiles(Path schemas) throws IOException {
        try (Stream<Path> files = Files.list(schemas)) {
            return (int) files.filter(p -> p.toString().endsWith(".avsc")).count();
        }
    }
}
