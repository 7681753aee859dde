package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tasks and evaluators for the intake rules: {@code plain} (evaluators {@code a} and {@code b}),
 * {@code judged} ({@code a} and rubric {@code r}), {@code ghost} (evaluator {@code missing}, not
 * installed) and {@code mixed} (the light evaluator {@code l}, then {@code a}). Evaluator {@code a} refuses
 * events whose {@code inputs.text} is "refuse", and throws on "boom". {@code a} and {@code b} read the
 * event's image (cost class IMAGE: the worker runs them, never intake); {@code l} is LIGHT, so intake runs
 * it: see {@link Light}.
 */
final class IntakeRules {

    private IntakeRules() {
    }

    static final TaskCatalog CATALOG = new TaskCatalog(List.of(
            spec("plain", List.of("a", "b"), Optional.empty()),
            spec("judged", List.of("a"), Optional.of("r")),
            spec("ghost", List.of("a", "missing"), Optional.empty()),
            spec("mixed", List.of("l", "a"), Optional.empty())));

    private static TaskSpec spec(String id, List<String> evaluators, Optional<String> rubric) {
        return new TaskSpec(id, "test", "test", Set.of("image", "video"), evaluators, rubric,
                in -> new GateResult(null, null, Map.of(), List.of(), List.of()));
    }

    static GenerationEvent.Builder event(String task) {
        return GenerationEvent.newBuilder()
                .setRunId("run").setModel("model").setCheckpointId("c1").setTrainingStep(10)
                .setTask(task).setSampleId("s1").setSeed(0).setModality("image")
                .setArtifacts(List.of(artifact("file:///out.png", null)))
                .setInputs(GenerationInputs.newBuilder().build())
                .setProducedAt(Instant.parse("2026-01-01T00:00:00Z")).setAttributes(Map.of());
    }

    static ArtifactRef artifact(String uri, String sha256) {
        return ArtifactRef.newBuilder().setUri(uri).setSha256(sha256).setMediaType("image/png").build();
    }

    static BenchmarkItem item(String task) {
        return BenchmarkItem.newBuilder().setTask(task).setSampleId("s1").setSeeds(1)
                .setGroundTruth(GroundTruth.newBuilder().build()).build();
    }

    static final class Evaluator implements DeterministicEvaluator {
        private final String id;

        Evaluator(String id) {
            this.id = id;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public String version() {
            return "1";
        }

        @Override
        public Optional<String> precheck(GenerationEvent event, BenchmarkItem item) {
            String text = event.getInputs().getText();
            if ("boom".equals(text)) {
                throw new IllegalStateException("exploded");
            }
            return id.equals("a") && "refuse".equals(text) ? Optional.of("text refused") : Optional.empty();
        }

        @Override
        public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
            return CostClass.IMAGE;
        }

        @Override
        public EvaluationOutcome evaluate(EvaluationContext context) {
            throw new UnsupportedOperationException("intake never evaluates image work");
        }
    }

    /**
     * The light evaluator {@code l}: metric {@code chars}, the length of {@code inputs.text}; on "invalid" it
     * refuses the input (an {@link EvaluationException}), on "crash" it throws, and on "read" it reads the
     * event's first artifact, which a light evaluation may not.
     */
    static final class Light implements DeterministicEvaluator {
        @Override
        public String id() {
            return "l";
        }

        @Override
        public String version() {
            return "3";
        }

        @Override
        public CostClass costClass(GenerationEvent event, BenchmarkItem item) {
            return CostClass.LIGHT;
        }

        @Override
        public EvaluationOutcome evaluate(EvaluationContext context) throws EvaluationException {
            String text = context.event().getInputs().getText();
            text = text == null ? "" : text;
            switch (text) {
                case "invalid" -> throw new EvaluationException("text is not an answer");
                case "crash" -> throw new IllegalStateException("light evaluator crashed");
                case "read" -> context.artifacts().read(context.event().getArtifacts().get(0));
                default -> {
                }
            }
            return EvaluationOutcome.of(Map.of("chars", (double) text.length()));
        }
    }
}
