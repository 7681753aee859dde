package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.tasks.arc.ArcTruth;
import io.mmgr.stream.tasks.nav.NavTruth;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A family's own ground truth (GroundTruth.payload) is held to the input limits as the shared fields it replaced
 * were: intake's check reads the payload through the installed families and names the field inside it.
 */
@Tag("unit")
class PayloadLimitsTest {

    static final InputCheck PLAIN = new InputCheck(InputLimits.DEFAULTS);
    static final InputCheck WITH_PAYLOADS = PLAIN.withPayloads(TaskCatalog.load()::readPayload);

    static BenchmarkItem item(String task, GroundTruth gt) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId("s-1").setGroundTruth(gt).setArtifacts(List.of()).build();
    }

    static List<List<Integer>> grid(int rows) {
        List<List<Integer>> g = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            g.add(List.of(r % 10, 0));
        }
        return g;
    }

    @Test
    void anArcGridOverThePointsLimitInsideThePayloadIsRefusedWithItsPath() {
        int over = InputLimits.DEFAULTS.points() + 1;
        BenchmarkItem big = item("arc", new ArcTruth(grid(over), List.of(0, 0, 2, over)).into(GroundTruth.newBuilder()).build());
        // the bytes alone are within text-bytes: only reading the payload finds the grid's size
        assertThat(big.getGroundTruth().getPayload().remaining()).isLessThan(InputLimits.DEFAULTS.textBytes());
        assertThat(PLAIN.check(big)).isEmpty();

        var v = WITH_PAYLOADS.check(big);
        assertThat(v).isPresent();
        assertThat(v.get().field()).isEqualTo("groundTruth.payload.grid");
        assertThat(v.get().size()).isEqualTo(over);
        assertThat(v.get().setting()).isEqualTo(InputLimits.setting("points"));

        BenchmarkItem fits = item("arc", new ArcTruth(grid(30), List.of(0, 0, 2, 30)).into(GroundTruth.newBuilder()).build());
        assertThat(WITH_PAYLOADS.check(fits)).isEmpty();
    }

    @Test
    void aNonFiniteNumberInsideANavPayloadIsRefused() {
        NavTruth truth = new NavTruth(List.of(), List.of(), List.of(), List.of(1.0, Double.NaN, 0.5), 0.5, null);
        BenchmarkItem nan = item("nav-3d", truth.into(GroundTruth.newBuilder()).build());
        assertThat(PLAIN.check(nan)).isEmpty();
        var v = WITH_PAYLOADS.check(nan);
        assertThat(v).isPresent();
        assertThat(v.get().field()).isEqualTo("groundTruth.payload.goal3d[1]");
        assertThat(v.get().reason()).contains("non-finite");
    }

    @Test
    void anUnreadableOrUnknownPayloadIsLeftToTheFamilysOwnCheck() {
        // intake cannot read it: it passes here, and the family's precheck names it per event (FamilyPayload.read)
        byte[] bytes = new byte[64];
        Arrays.fill(bytes, (byte) 7);
        ByteBuffer junk = ByteBuffer.wrap(bytes);
        BenchmarkItem unreadable = item("arc", GroundTruth.newBuilder().setFamily("arc").setPayload(junk).build());
        assertThat(WITH_PAYLOADS.check(unreadable)).isEmpty();
        BenchmarkItem unknown = item("arc", GroundTruth.newBuilder().setFamily("no-such-family").setPayload(junk).build());
        assertThat(WITH_PAYLOADS.check(unknown)).isEmpty();
        assertThat(junk.position()).as("the check reads a view of the bytes").isZero();
    }
}
