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

    private String run(String... args) {
        return CliRun.stdout(args);
    }

    @Test
    void lastMileThroughGeometryAndGeoAlign() throws Exception {
        Path item = dir.resolve("item.json");
        Files.writeString(item, "{\"task\": \"nav-last-mile\", \"sampleId\": \"lm-1\", \"groundTruth\": {"
                + "\"goal3d\": [4, 0, 0], \"goalRadius3d\": 0.5,"
                + "\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0}, {\"frame\": 1, \"x\": 2, \"y\": 0, \"z\": 0},"
                + " {\"frame\": 2, \"x\": 4, \"y\": 0, \"z\": 0}]}}");
        Path event = dir.resolve("event.json");
        Files.writeString(event, "{\"runId\": \"r\", \"model\": \"veo\", \"checkpointId\": \"c\", \"trainingStep\": 1,"
                + " \"task\": \"nav-last-mile\", \"sampleId\": \"lm-1\", \"modality\": \"video\", \"producedAt\": 0,"
                + " \"inputs\": {\"trajectory3d\": [{\"frame\": 0, \"x\": 0, \"y\": 0, \"z\": 0},"
                + " {\"frame\": 1, \"x\": 2, \"y\": 1, \"z\": 0}, {\"frame\": 2, \"x\": 4, \"y\": 0.3, \"z\": 0}]}}");
        JsonNode out = new ObjectMapper().readTree(run("eval", "nav", "--item", item.toString(), "--event", event.toString()));
        assertThat(out.get("nav-geometry").get("success_3d").asDouble()).isEqualTo(1.0);
        assertThat(out.get("nav-geometry").get("oracle_success_3d").asDouble()).isEqualTo(1.0);
        assertThat(out.get("geo-align").get("nav_error").asDouble()).isCloseTo(0.3, within(1e-12));
        assertThat(out.get("geo-align").get("path_length_gt").asDouble()).isEqualTo(4.0);
        assertThat(out.get("geo-align").get("diagnostics").get("higher_is_better").asText()).isEqualTo("sr,spl,ndtw,sdtw");
    }
}
