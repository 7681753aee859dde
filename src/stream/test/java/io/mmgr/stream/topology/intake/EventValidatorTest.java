package io.mmgr.stream.topology.intake;

import io.mmgr.stream.tasks.EventValidator;
import static io.mmgr.stream.topology.intake.IntakeRules.artifact;
import static io.mmgr.stream.topology.intake.IntakeRules.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.GenerationEvent;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What makes a generation event unscorable before its item is looked up, and the reason given. */
@Tag("unit")
class EventValidatorTest {

    final EventValidator validator = new EventValidator(IntakeRules.CATALOG);

    @Test
    void aWellFormedEventPasses() {
        assertThat(validator.problem(event("plain").build())).isEmpty();
        assertThat(validator.problem(event("plain").setModality("video").setArtifacts(List.of(
                artifact("file:///a.mp4", "0123456789abcdef".repeat(4)))).build())).isEmpty();
    }

    @Test
    void identifiersMustBeNonEmpty() {
        assertThat(validator.problem(event("plain").setRunId("").build())).hasValue("field runId is empty");
        assertThat(validator.problem(event("plain").setCheckpointId("  ").build())).hasValue("field checkpointId is empty");
        assertThat(validator.problem(event("plain").setSampleId("").build())).hasValue("field sampleId is empty");
        assertThat(validator.problem(event("plain").setModel(" ").build())).hasValue("field model is empty");
    }

    /** Keys and store prefixes are joined with '/', so an identifier holding one would collide with another's. */
    @ParameterizedTest
    @ValueSource(strings = {"a/b", "/a", "a/", " a"})
    void identifiersMayNotHoldASlashOrStartWithASpace(String id) {
        assertThat(validator.problem(event("plain").setSampleId(id).build())).hasValueSatisfying(r -> assertThat(r)
                .startsWith("field sampleId '" + id + "'").contains("may not contain '/'"));
        assertThat(validator.problem(event("plain").setRunId(id).build())).hasValueSatisfying(r -> assertThat(r)
                .startsWith("field runId"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a.b~c", "é", "a "})
    void otherCharactersAreFineInIdentifiers(String id) {
        assertThat(validator.problem(event("plain").setSampleId(id).build())).isEmpty();
    }

    @Test
    void negativeSeedsAndStepsAreRefused() {
        assertThat(validator.problem(event("plain").setSeed(-1).build())).hasValue("seed -1 is negative");
        assertThat(validator.problem(event("plain").setTrainingStep(-5).build())).hasValue("trainingStep -5 is negative");
    }

    @Test
    void anUnknownTaskNamesTheKnownOnes() {
        assertThat(validator.problem(event("chess").build())).hasValueSatisfying(r -> assertThat(r)
                .startsWith("unknown task 'chess'").contains("plain").contains("judged").contains("ghost"));
    }

    @Test
    void aModalityTheTaskDoesNotTakeNamesTheOnesItDoes() {
        GenerationEvent e = event("plain").setModality("audio").build();
        assertThat(validator.problem(e)).hasValue("task plain does not accept modality 'audio' (accepts: image, video)");
    }

    @Test
    void artifactsNeedAUriAndAWellFormedDigest() {
        assertThat(validator.problem(event("plain").setArtifacts(List.of(artifact(" ", null))).build()))
                .hasValue("an artifact has an empty uri");
        assertThat(validator.problem(event("plain").setArtifacts(List.of(artifact("file:///x.png", "abc"))).build()))
                .hasValueSatisfying(r -> assertThat(r).contains("file:///x.png").contains("malformed sha256"));
        assertThat(validator.problem(event("plain").setArtifacts(List.of(
                artifact("file:///x.png", "g".repeat(64)))).build())).as("64 characters, but not hex").isPresent();
    }
}
