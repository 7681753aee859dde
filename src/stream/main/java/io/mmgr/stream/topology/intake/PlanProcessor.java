package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.Evaluations;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.PartPlan;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import io.mmgr.stream.contract.SampleKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Decides which parts a sample needs and what cannot arrive ({@link PartPlan}, the rule {@code eval}
 * uses too), so that a user without a judge still gets every deterministic score, and evaluates the light
 * ones itself ({@link LightEvaluations}): their results go on the plan, image and video evaluations to the
 * worker's queues. Receives events with their item (from {@link ItemWaitProcessor}); rejections made before
 * it pass through.
 */
final class PlanProcessor implements FixedKeyProcessor<byte[], IntakeResult, IntakeResult> {

    private final TaskCatalog catalog;
    private final boolean judgeEnabled;
    /** Prechecks and light evaluations run on this processor's stream thread, with instances of its own. */
    private final Function<String, Optional<DeterministicEvaluator>> evaluators;
    private FixedKeyProcessorContext<byte[], IntakeResult> context;

    PlanProcessor(TaskCatalog catalog, EvaluatorRegistry evaluators, boolean judgeEnabled) {
        this.catalog = catalog;
        this.evaluators = evaluators.instances();
        this.judgeEnabled = judgeEnabled;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], IntakeResult> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], IntakeResult> record) {
        if (record.value() instanceof IntakeResult.Accepted a) {
            context.forward(record.withValue(plan(a)));
        } else {
            context.forward(record);
        }
    }

    IntakeResult plan(IntakeResult.Accepted a) {
        GenerationEvent event = a.event();
        BenchmarkItem item = a.item();
        String ref = EventReader.refOf(event);
        if (item == null) {
            throw new IllegalStateException("planned without its benchmark item: " + ref);
        }
        TaskSpec spec = catalog.find(event.getTask()).orElseThrow();
        PartPlan parts = PartPlan.of(spec, evaluators, event, item, judgeEnabled);
        if (parts.rejected()) {
            return EventReader.reject(a.raw(), parts.rejection(), null, ref);
        }
        List<String> planned = parts.planned();
        SampleKey key = SampleKeys.of(event);
        List<EvaluationRequest> evaluations = new ArrayList<>();
        List<DeterministicResult> results = new ArrayList<>();
        List<DeadLetter> letters = new ArrayList<>();
        for (String id : planned) {
            if (id.equals(TaskSpec.JUDGE_PART)) {
                continue;
            }
            Optional<DeterministicEvaluator> evaluator = evaluators.apply(id);
            if (evaluator.isPresent() && evaluator.get().costClass(event, item) == CostClass.LIGHT) {
                Evaluations.Outcome outcome = LightEvaluations.run(id, evaluator.get(), key, a);
                results.add(outcome.result());
                if (outcome.letter() != null) {
                    letters.add(outcome.letter());
                }
            } else {
                evaluations.add(new EvaluationRequest(a.generationId(), id, event, item));
            }
        }
        SamplePlan plan = SamplePlan.newBuilder()
                .setGenerationId(a.generationId())
                .setModel(event.getModel())
                .setTrainingStep(event.getTrainingStep())
                .setModality(event.getModality())
                .setProducedAt(event.getProducedAt())
                .setPlannedParts(planned)
                .setUnavailableParts(new TreeMap<>(parts.unavailable()))
                .setArtifacts(event.getArtifacts().isEmpty() ? null : event.getArtifacts())
                .setResults(results)
                .build();
        List<JudgeRequest> judge = planned.contains(TaskSpec.JUDGE_PART)
                ? List.of(JudgeRequest.newBuilder()
                        .setRequestId(requestId(key, spec.rubric().orElseThrow(), a.generationId()))
                        .setGenerationId(a.generationId())
                        .setRubric(spec.rubric().orElseThrow())
                        .setEvent(event)
                        .setItem(item)
                        .setRequestedAt(Instant.now())
                        .build())
                : List.of();
        return new IntakeResult.Planned(key, event, item, plan, evaluations, judge, letters);
    }

    /** Idempotency key of a judge request: the same sample, rubric and generation never bill twice. */
    static String requestId(SampleKey key, String rubric, String generationId) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((SampleKeys.ref(key) + "|" + rubric + "|" + generationId).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
