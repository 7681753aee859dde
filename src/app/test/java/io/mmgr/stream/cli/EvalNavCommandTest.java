package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("unit")
class EvalNavCommandTest {

    @TempDir
    Path dir;

    /** {@code eval nav} on an item and an event of sample {@code sample} of nav-last-mile, given their JSON tails. */
    private CliRun run(String sample, String groundTruth, String inputs) throws Exception {
        Path item = dir.resolve("item.json");
        Files.writeString(item, "{\"task\": \"nav-last-mile\", \"sampleId\": \"" + sample + "\", \"groundTruth\": {"
                + groundTruth + "}}");
        Path event = dir.resolve("event.json");
        Files.writeString(event, "{\"runId\": \"r\", \"model\": \"veo\", \"checkpointId\": \"c\", \"trainingStep\": 1,"
                + " \"task\": \"nav-last-mile\", \"sampleId\": \"" + sample + "\", \"modality\": \"video\", \"producedAt\": 0,"
                + " \"inputs\": {" + inputs + "}}");
        return CliRun.of("eval", "nav", "--item", item.toString(), "--event", event.toString());
    }

    @Test
    void lastMileThroughGeometryAndGeoAlign() throws Exception {
        CliRun run = run("lm-1", "\"goal3d\": [4, 0, 0], \"goalRadius3d\": 0.5,"
                + "\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0}, {\"frame\": 1, \"x\": 2, \"y\": 0, \"z\": 0},"
                + " {\"frame\": 2, \"x\": 4, \"y\": 0, \"z\": 0}]",
                "\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0},"
                + " {\"frame\": 1, \"x\": 2, \"y\": 1, \"z\": 0}, {\"frame\": 2, \"x\": 4, \"y\": 0.3, \"z\": 0}]");
        JsonNode out = new ObjectMapper().readTree(run.out());
        assertThat(out.get("nav-geometry").get("success_3d").asDouble()).isEqualTo(1.0);
        assertThat(out.get("nav-geometry").get("oracle_success_3d").asDouble()).isEqualTo(1.0);
        assertThat(out.get("geo-align").get("nav_error").asDouble()).isCloseTo(0.3, within(1e-12));
        assertThat(out.get("geo-align").get("path_length_gt").asDouble()).isEqualTo(4.0);
        assertThat(out.get("geo-align").get("diagnostics").get("higher_is_better").asText()).isEqualTo("sr,spl,ndtw,sdtw");
    }

    @Test
    void anItemWithoutATargetPrintsTheMetricsItHasAndNamesTheOthers() throws Exception {
        CliRun run = run("lm-2", "\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0, \"headingDeg\": 0},"
                + " {\"frame\": 1, \"x\": 2, \"y\": 0, \"z\": 0, \"headingDeg\": 0},"
                + " {\"frame\": 2, \"x\": 4, \"y\": 0, \"z\": 0, \"headingDeg\": 0}]",
                "\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0, \"headingDeg\": 0},"
                + " {\"frame\": 1, \"x\": 3, \"y\": 0, \"z\": 0, \"headingDeg\": 0},"
                + " {\"frame\": 2, \"x\": 6, \"y\": 0, \"z\": 0, \"headingDeg\": 30}]");
        assertThat(run.exit()).isZero();
        JsonNode out = new ObjectMapper().readTree(run.out());
        assertThat(out.get("status").asText()).isEqualTo("PARTIAL");
        JsonNode geometry = out.get("nav-geometry");
        assertThat(geometry.has("error")).isFalse();
        assertThat(geometry.get("success_3d").isNull()).isTrue();
        assertThat(geometry.get("unavailable").get("success_3d").asText())
                .isEqualTo("benchmark item lm-2 has no 3D target (groundTruth.goal3d)");
        assertThat(geometry.get("unavailable").get("oracle_success_3d").asText()).contains("no 3D target");
        // the prediction is the ground truth scaled by 1.5: no error after the similarity alignment
        JsonNode geo = out.get("geo-align");
        assertThat(geo.get("ate").asDouble()).isCloseTo(0.0, within(1e-9));
        assertThat(geo.get("rpe").asDouble()).isCloseTo(0.0, within(1e-9));
        assertThat(geo.get("path_length_pred").asDouble()).isEqualTo(6.0);
        assertThat(geo.get("path_length_gt").asDouble()).isEqualTo(4.0);
        assertThat(geo.get("nav_error").asDouble()).isEqualTo(2.0); // from the ground truth's end
        assertThat(geo.get("dir_error_deg").asDouble()).isEqualTo(30.0);
        assertThat(geo.has("unavailable")).isFalse();
    }
}
