package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.TaskFamily;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SchemaEvolutionTest}'s rule for the families' own payload schemas; here, where the families are on the
 * class path as folders (the contract's tests see no family).
 */
@Tag("unit")
class FamilyPayloadSchemasTest {

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
            assertThat(report.comparisons()).as("%s", dir).isEqualTo(SchemaEvolutionTest.releasedFiles(dir)).isGreaterThanOrEqualTo(SchemaEvolutionTest.currentFiles(dir));
        }
        assertThat(folders).as("families with a payload schema: every production family").isGreaterThanOrEqualTo(7);
    }

}
