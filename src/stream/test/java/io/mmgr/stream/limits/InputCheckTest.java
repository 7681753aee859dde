package io.mmgr.stream.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.Pose;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.UiAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Every kind of field of the input schemas against its limit, and the settings that change them. */
@Tag("unit")
class InputCheckTest {

    final InputCheck check = new InputCheck(InputLimits.DEFAULTS);

    static GenerationEvent.Builder event() {
        return GenerationEvent.newBuilder().setRunId("r").setModel("m").setCheckpointId("c").setTrainingStep(1)
                .setTask("mind2web").setSampleId("s").setModality("ui").setProducedAt(Instant.EPOCH);
    }

    static String bytes(int n) {
        return "x".repeat(n);
    }

    Optional<InputCheck.Violation> of(GenerationEvent e) {
        return check.check(e);
    }

    @Test
    void aValidEventPassesAndEveryIdentifierIsHeldToIdBytes() {
        assertThat(of(event().build())).isEmpty();
        for (String field : List.of("runId", "model", "checkpointId", "task", "sampleId", "modality", "eventId")) {
            GenerationEvent e = event().build();
            e.put(field, bytes(257));
            InputCheck.Violation v = of(e).orElseThrow(() -> new AssertionError(field + " passed"));
            assertThat(v.field()).isEqualTo(field);
            assertThat(v.size()).isEqualTo(257);
            assertThat(v.limit()).isEqualTo(256);
            assertThat(v.setting()).isEqualTo("mmgr.limits.id-bytes");
            assertThat(v.reason()).isEqualTo("field " + field + " is 257 bytes, over the limit of 256 bytes (mmgr.limits.id-bytes)");
            e.put(field, bytes(256));
            assertThat(of(e)).as(field + " at its limit").isEmpty();
        }
    }

    @Test
    void sizesAreUtf8Bytes() {
        // 100 characters of 3 bytes each: 300 bytes, over 256
        InputCheck.Violation v = of(event().setSampleId("€".repeat(100)).build()).orElseThrow();
        assertThat(v.size()).isEqualTo(300);
        assertThat(InputCheck.utf8Length("a€😀")).isEqualTo(1 + 3 + 4);
    }

    @Test
    void textsUrisInlineArtifactsAndAttributes() {
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setText(bytes(64 << 10)).build()).build())).isEmpty();
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setText(bytes((64 << 10) + 1)).build()).build())
                .orElseThrow().field()).isEqualTo("inputs.text");
        ArtifactRef file = ArtifactRef.newBuilder().setUri("file:///" + bytes(5000)).setMediaType("image/png").build();
        assertThat(of(event().setArtifacts(List.of(file)).build()).orElseThrow().setting()).isEqualTo("mmgr.limits.uri-bytes");
        ArtifactRef inline = ArtifactRef.newBuilder().setUri("data:image/png;base64," + bytes(100_000)).setMediaType("image/png").build();
        assertThat(of(event().setArtifacts(List.of(inline)).build())).as("an inline artifact under 192 KiB").isEmpty();
        ArtifactRef big = ArtifactRef.newBuilder().setUri("DATA:image/png;base64," + bytes(200_000)).setMediaType("image/png").build();
        InputCheck.Violation v = of(event().setArtifacts(List.of(file, big)).build()).orElseThrow();
        assertThat(v.field()).isEqualTo("artifacts[0].uri");
        v = of(event().setArtifacts(List.of(big)).build()).orElseThrow();
        assertThat(v.field()).isEqualTo("artifacts[0].uri");
        assertThat(v.setting()).isEqualTo("mmgr.limits.inline-artifact-bytes");
        List<ArtifactRef> many = new ArrayList<>();
        for (int i = 0; i < 65; i++) {
            many.add(ArtifactRef.newBuilder().setUri("file:///a" + i).setMediaType("image/png").build());
        }
        assertThat(of(event().setArtifacts(many).build()).orElseThrow().reason())
                .isEqualTo("field artifacts has 65 items, over the limit of 64 (mmgr.limits.artifacts)");
        assertThat(of(event().setAttributes(Map.of("k", bytes(5000))).build()).orElseThrow().field()).isEqualTo("attributes['k']");
        InputCheck.Violation key = of(event().setAttributes(Map.of(bytes(300), "v")).build()).orElseThrow();
        assertThat(key.reason()).startsWith("field a key of attributes is 300 bytes");
    }

    @Test
    void arraysAndMapsByCount() {
        List<Pose> poses = new ArrayList<>();
        for (int i = 0; i < 10_001; i++) {
            poses.add(new Pose(i, 1.0, 2.0, null, null));
        }
        InputCheck.Violation v = of(event().setInputs(GenerationInputs.newBuilder().setTrajectory2d(poses).build()).build()).orElseThrow();
        assertThat(v.reason()).isEqualTo("field inputs.trajectory2d has 10001 items, over the limit of 10000 (mmgr.limits.points)");
        List<UiAction> steps = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            steps.add(UiAction.newBuilder().setOp("CLICK").build());
        }
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setUiActions(steps).build()).build()).orElseThrow().setting())
                .isEqualTo("mmgr.limits.steps");
        Map<String, Double> values = new HashMap<>();
        for (int i = 0; i < 257; i++) {
            values.put("v" + i, 0.5);
        }
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setValues(values).build()).build()).orElseThrow().reason())
                .isEqualTo("field inputs.values has 257 entries, over the limit of 256 (mmgr.limits.map-entries)");
        Map<String, List<Double>> features = Map.of("inception", java.util.Collections.nCopies(10_001, 0.0));
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setFeatures(features).build()).build()).orElseThrow().field())
                .isEqualTo("inputs.features['inception']");
    }

    @Test
    void nonFiniteNumbersAnywhereAreRefused() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThat(of(event().setInputs(GenerationInputs.newBuilder().setValues(Map.of("lpips", bad)).build()).build())
                    .orElseThrow().reason()).isEqualTo("field inputs.values['lpips'] is " + bad
                    + ": non-finite numbers (NaN, Infinity, overflowing literals) are refused");
        }
        Pose pose = new Pose(0, 1.0, Double.POSITIVE_INFINITY, null, null);
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setTrajectory3d(List.of(pose)).build()).build())
                .orElseThrow().field()).isEqualTo("inputs.trajectory3d[0].y");
        UiAction box = UiAction.newBuilder().setScreenBoxes(List.of(List.of(0.0, Double.NaN))).build();
        assertThat(of(event().setInputs(GenerationInputs.newBuilder().setUiActions(List.of(box)).build()).build())
                .orElseThrow().field()).isEqualTo("inputs.uiActions[0].screenBoxes[0][1]");
        ArtifactRef fps = ArtifactRef.newBuilder().setUri("file:///a").setMediaType("video/mp4").setFps(Double.NaN).build();
        assertThat(of(event().setArtifacts(List.of(fps)).build()).orElseThrow().field()).isEqualTo("artifacts[0].fps");
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask("screenspot").setSampleId("s")
                .setGroundTruth(GroundTruth.newBuilder().setTargetBox(List.of(0.0, 0.0, Double.POSITIVE_INFINITY, 1.0)).build()).build();
        assertThat(check.check(item).orElseThrow().field()).isEqualTo("groundTruth.targetBox[2]");
        HumanLabel label = new HumanLabel("ann", Map.of("cross_wall", Double.POSITIVE_INFINITY), null, Instant.EPOCH);
        assertThat(check.checkLabel(label, label.getMetrics()).orElseThrow().field()).isEqualTo("metrics['cross_wall']");
    }

    @Test
    void itemsLabelsAndKeys() {
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask("math").setSampleId("s").setPrompt(bytes(70_000))
                .setGroundTruth(GroundTruth.newBuilder().build()).build();
        assertThat(check.check(item).orElseThrow().field()).isEqualTo("prompt");
        item = BenchmarkItem.newBuilder().setTask("maze").setSampleId("s")
                .setGroundTruth(GroundTruth.newBuilder().setExtra(Map.of("x", bytes(4097))).build()).build();
        assertThat(check.check(item).orElseThrow().setting()).isEqualTo("mmgr.limits.attribute-bytes");
        Map<String, Double> metrics = new HashMap<>();
        for (int i = 0; i < 33; i++) {
            metrics.put("m" + i, 1.0);
        }
        HumanLabel label = new HumanLabel("ann", metrics, null, Instant.EPOCH);
        assertThat(check.checkLabel(label, label.getMetrics()).orElseThrow().reason())
                .isEqualTo("field metrics has 33 entries, over the limit of 32 (mmgr.limits.label-metrics)");
        assertThat(check.checkLabel(new HumanLabel(bytes(300), Map.of(), null, Instant.EPOCH), Map.of()).orElseThrow().field())
                .isEqualTo("annotator");
        assertThat(check.check(new SampleKey("r", "c", "t", bytes(300), 0)).orElseThrow().field()).isEqualTo("sampleId");
        assertThat(check.size("event", 300_000, 262_144, "event-bytes").orElseThrow().reason())
                .isEqualTo("the event is 300000 bytes (293 KiB), over the limit of 262144 bytes (256 KiB) (mmgr.limits.event-bytes)");
    }

    @Test
    void limitsAreSettingsAndTyposAreErrors() {
        InputLimits l = InputLimits.of(Map.of("mmgr.limits.id-bytes", "64", "mmgr.agreement.min-pairs", "3", "linger.ms", "5"));
        assertThat(l.idBytes()).isEqualTo(64);
        assertThat(l.eventBytes()).isEqualTo(InputLimits.DEFAULTS.eventBytes());
        assertThat(new InputCheck(l).check(event().setSampleId(bytes(65)).build()).orElseThrow().limit()).isEqualTo(64);
        assertThatThrownBy(() -> InputLimits.of(Map.of("mmgr.limits.id-byte", "64"))).hasMessageContaining("unknown setting mmgr.limits.id-byte");
        assertThatThrownBy(() -> InputLimits.of(Map.of("mmgr.limits.points", "many"))).hasMessageContaining("must be a whole number");
        assertThatThrownBy(() -> InputLimits.of(Map.of("mmgr.limits.points", "0"))).hasMessageContaining("must be at least 1");
        assertThat(InputLimits.DEFAULTS.asMap()).hasSize(14).containsEntry("event-bytes", 262_144);
    }

    @Test
    void theDefaultsFitKafkasDefaultRecordLimit() {
        // every derived record of within-limits inputs, with the writers' headroom, under 1 MiB
        assertThat(InputLimits.DEFAULTS.worstCaseDerivedBytes() + io.mmgr.stream.topology.RecordCaps.HEADROOM)
                .isLessThan(1_048_576);
    }
}
