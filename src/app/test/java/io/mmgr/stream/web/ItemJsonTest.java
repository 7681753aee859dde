package io.mmgr.stream.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.tasks.TaskFamily;
import io.mmgr.stream.tasks.magma.MagmaTruth;
import io.mmgr.stream.tasks.maze.MazeTruth;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The API's benchmark item: a family's payload shown decoded, anything else as it was sent. */
@Tag("unit")
class ItemJsonTest {

    static final ItemJson ITEMS = new ItemJson(TaskFamily.installed());

    static BenchmarkItem item(GroundTruth gt) {
        return BenchmarkItem.newBuilder().setTask("maze").setSampleId("s").setGroundTruth(gt).build();
    }

    @Test
    void aFamilysPayloadIsShownAsItsRecord() {
        GroundTruth maze = new MazeTruth(2, 3, List.of("#######", "#.....#"), List.of(List.of(0, 0), List.of(0, 1)),
                Map.of("agent", "blue")).into(GroundTruth.newBuilder().setContext("c")).build();
        ObjectNode json = ITEMS.of(item(maze));
        assertThat(json.at("/groundTruth/family").asText()).isEqualTo("maze");
        assertThat(json.at("/groundTruth/payload/rows").asInt()).isEqualTo(2);
        assertThat(json.at("/groundTruth/payload/lattice/1").asText()).isEqualTo("#.....#");
        assertThat(json.at("/groundTruth/payload/solutionPath/1/1").asInt()).isEqualTo(1);
        assertThat(json.at("/groundTruth/payload/markers/agent").asText()).isEqualTo("blue");
        assertThat(json.at("/groundTruth/context").asText()).isEqualTo("c");

        GroundTruth click = MagmaTruth.click(List.of(1.0, 2.5, 3.0, 4.0), "icon").into(GroundTruth.newBuilder()).build();
        ObjectNode magma = ITEMS.of(item(click));
        assertThat(magma.at("/groundTruth/payload/targetBox/1").asDouble()).isEqualTo(2.5);
        assertThat(magma.at("/groundTruth/payload/elementKind").asText()).isEqualTo("icon");
        assertThat(magma.at("/groundTruth/payload/uiSteps").isNull()).isTrue();
    }

    @Test
    void whatNoInstalledFamilyReadsIsShownAsSent() {
        GroundTruth shared = GroundTruth.newBuilder().setMazeRows(4).build();
        assertThat(ITEMS.of(item(shared)).at("/groundTruth/mazeRows").asInt()).isEqualTo(4);
        ByteBuffer bytes = ByteBuffer.wrap(new byte[] {1, 2, 3});
        GroundTruth unknown = GroundTruth.newBuilder().setFamily("tetris").setPayload(bytes).build();
        assertThat(ITEMS.of(item(unknown)).at("/groundTruth/payload").asText()).isEqualTo("AQID");
        GroundTruth garbage = GroundTruth.newBuilder().setFamily("maze").setPayload(bytes).build();
        assertThat(ITEMS.of(item(garbage)).at("/groundTruth/payload").asText()).isEqualTo("AQID");
    }
}
