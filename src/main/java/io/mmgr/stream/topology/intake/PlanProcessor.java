package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import io.mmgr.stream.topology.DeadLetters;
import io.mmgr.stream.contract.SampleKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Decides which parts a sample needs (the task's deterministic evaluators that are installed, and
 * its judge rubric when a judge is configured) and what cannot arrive, so that a user without a
 * judge still gets every deterministic score. Receives events with their item (from
 * {@link ItemWaitProcessor}); rejections made before it pass through.
 */
final class PlanProcessor implements FixedKeyProcessor<byte[], IntakeResult, IntakeResult> {

    private final TaskCatalog catalog;
    private final EvaluatorRegistry evaluators;
    private final boolean judgeEnabled;
    private final Map<String, DeterministicEvaluator> prechecks = new HashMap<>();
    private FixedKeyProcessorContext<byte[], IntakeResult> context;

    PlanProcessor(TaskCatalog catalog, EvaluatorRegistry evaluators, boolean judgeEnabled) {
        this.catalog = catalog;
        this.evaluators = evaluators;
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
        List<String> planned = new ArrayList<>();
        Map<String, String> unavailable = new TreeMap<>();
        for (String id : spec.evaluators()) {
            Optional<DeterministicEvaluator> evaluator = precheckInstance(id);
            if (evaluator.isEmpty()) {
                unavailable.put(id, "evaluator '" + id + "' is not installed in this build");
                continue;
            }
            Optional<String> problem;
            try {
                problem = evaluator.get().precheck(event, item);
            } catch (RuntimeException e) {
                problem = Optional.of("precheck failed: " + DeadLetters.describe(e));
            }
            if (problem.isPresent()) {
                return EventReader.reject(a.raw(), id + ": " + problem.get(), null, ref);
            }
            planned.add(id);
        }
        if (spec.judged()) {
            if (judgeEnabled) {
                planned.add(TaskSpec.JUDGE_PART);
            } else {
                unavailable.put(TaskSpec.JUDGE_PART, "no judge configured");
            }
        }
        SampleKey key = SampleKeys.of(event);
        SamplePlan plan = SamplePlan.newBuilder()
                .setGenerationId(a.generationId())
                .setModel(event.getModel())
                .setTrainingStep(event.getTrainingStep())
                .setModality(event.getModality())
                .setProducedAt(event.getProducedAt())
                .setPlannedParts(planned)
                .setUnavailableParts(unavailable)
                .setArtifacts(event.getArtifacts().isEmpty() ? null : event.getArtifacts())
                .build();
        List<EvaluationRequest> evaluations = new ArrayList<>();
        for (String id : planned) {
            if (!id.equals(TaskSpec.JUDGE_PART)) {
                evaluations.add(new EvaluationRequest(a.generationId(), id, event, item));
            }
        }
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
        return new IntakeResult.Planned(key, plan, evaluations, judge);
    }

    private Optional<DeterministicEvaluator> precheckInstance(String id) {
        if (!evaluators.contains(id)) {
            return Optional.empty();
        }
        return Optional.of(prechecks.computeIfAbsent(id, k -> evaluators.newInstance(k).orElseThrow()));
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
