package io.mmgr.stream.topology.evaluate;

import io.mmgr.stream.artifacts.ArtifactResolver;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluationContext;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.EvaluationOutcome;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.topology.DeadLetters;
import io.mmgr.stream.topology.SampleKeys;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one deterministic evaluator per request. Each processor instance (one per task, used by one
 * stream thread at a time) keeps its own evaluator instances, so engines such as OCR are never shared.
 */
final class EvaluateProcessor implements Processor<byte[], byte[], SampleKey, Evaluated> {

    private static final Logger LOG = LoggerFactory.getLogger(EvaluateProcessor.class);

    private final EvaluatorRegistry registry;
    private final ArtifactResolver artifacts;
    private final Deserializer<SampleKey> keys;
    private final Deserializer<EvaluationRequest> requests;
    private final Map<String, DeterministicEvaluator> instances = new HashMap<>();
    private ProcessorContext<SampleKey, Evaluated> context;

    EvaluateProcessor(EvaluatorRegistry registry, ArtifactResolver artifacts,
                      Deserializer<SampleKey> keys, Deserializer<EvaluationRequest> requests) {
        this.registry = registry;
        this.artifacts = artifacts;
        this.keys = keys;
        this.requests = requests;
    }

    @Override
    public void init(ProcessorContext<SampleKey, Evaluated> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        String topic = context.recordMetadata().map(m -> m.topic()).orElse("evaluation-requests");
        SampleKey key;
        EvaluationRequest request;
        try {
            key = keys.deserialize(topic, record.key());
            request = requests.deserialize(topic, record.value());
            if (key == null || request == null) {
                throw new IllegalArgumentException("key or value is missing");
            }
        } catch (RuntimeException e) {
            DeadLetter letter = letter(record, "evaluate", "unreadable evaluation request: " + DeadLetters.describe(e), e, null);
            context.forward(new Record<>(null, new Evaluated(null, letter), record.timestamp()));
            return;
        }
        context.forward(new Record<>(key, evaluate(key, request, record), record.timestamp()));
    }

    private Evaluated evaluate(SampleKey key, EvaluationRequest request, Record<byte[], byte[]> record) {
        String id = request.getEvaluator();
        Optional<DeterministicEvaluator> evaluator = instance(id);
        if (evaluator.isEmpty()) {
            return failed(key, request, "evaluator '" + id + "' is not installed in this build", "?", null, record, 0);
        }
        long start = System.nanoTime();
        try {
            EvaluationOutcome outcome = evaluator.get().evaluate(new EvaluationContext(request.getEvent(), request.getItem(), artifacts));
            return new Evaluated(DeterministicResult.newBuilder()
                    .setGenerationId(request.getGenerationId())
                    .setEvaluator(id)
                    .setEvaluatorVersion(evaluator.get().version())
                    .setMetrics(new HashMap<>(outcome.metrics()))
                    .setDiagnostics(new HashMap<>(outcome.diagnostics()))
                    .setDurationMicros(micros(start))
                    .setEvaluatedAt(Instant.now())
                    .build(), null);
        } catch (EvaluationException e) {
            return failed(key, request, e.getMessage(), evaluator.get().version(), e, record, micros(start));
        } catch (RuntimeException | StackOverflowError e) {
            LOG.warn("evaluator {} failed on {}", id, SampleKeys.ref(key), e);
            return failed(key, request, "evaluator failed unexpectedly: " + DeadLetters.describe(e),
                    evaluator.get().version(), e, record, micros(start));
        }
    }

    private Evaluated failed(SampleKey key, EvaluationRequest request, String reason, String version, Throwable error,
                             Record<byte[], byte[]> record, long micros) {
        DeterministicResult result = DeterministicResult.newBuilder()
                .setGenerationId(request.getGenerationId())
                .setEvaluator(request.getEvaluator())
                .setEvaluatorVersion(version)
                .setError(reason)
                .setDurationMicros(micros)
                .setEvaluatedAt(Instant.now())
                .build();
        return new Evaluated(result, letter(record, "evaluate:" + request.getEvaluator(), reason, error, SampleKeys.ref(key)));
    }

    private DeadLetter letter(Record<byte[], byte[]> record, String stage, String reason, Throwable error, String ref) {
        return DeadLetters.of(context.recordMetadata(), stage, reason, error, record.key(), record.value(), ref);
    }

    private Optional<DeterministicEvaluator> instance(String id) {
        DeterministicEvaluator existing = instances.get(id);
        if (existing != null) {
            return Optional.of(existing);
        }
        Optional<DeterministicEvaluator> created = registry.newInstance(id);
        created.ifPresent(e -> instances.put(id, e));
        return created;
    }

    private static long micros(long startNanos) {
        return (System.nanoTime() - startNanos) / 1000;
    }

    @Override
    public void close() {
        for (DeterministicEvaluator e : instances.values()) {
            if (e instanceof AutoCloseable c) {
                try {
                    c.close();
                } catch (Exception ex) {
                    LOG.debug("closing evaluator {}", e.id(), ex);
                }
            }
        }
        instances.clear();
    }
}
