package io.mmgr.stream.topology;

import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.tasks.Evaluations;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.DeterministicEvaluator;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The evaluation worker's part under TopologyTestDriver, which runs only the Streams topology: takes
 * what intake wrote to the three evaluation queues, evaluates it with the worker's own code
 * ({@link Evaluations}), in order, on this thread, and pipes the results into cv-results. Dead letters
 * the evaluations produce are kept here (the driver cannot take them as input).
 */
public final class EvaluationBridge {

    private final Topics topics;
    private final EvaluatorRegistry registry;
    private final ArtifactResolver artifacts;
    private final Map<CostClass, TestOutputTopic<byte[], byte[]>> queues = new EnumMap<>(CostClass.class);
    private final TestInputTopic<SampleKey, DeterministicResult> results;
    private final Map<String, DeterministicEvaluator> instances = new HashMap<>();
    private final Map<CostClass, Integer> evaluated = new EnumMap<>(CostClass.class);
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private final List<org.apache.kafka.streams.KeyValue<SampleKey, DeterministicResult>> written = new ArrayList<>();

    public EvaluationBridge(TopologyTestDriver driver, Topics topics, EvaluatorRegistry registry, ArtifactResolver artifacts) {
        this.topics = topics;
        this.registry = registry;
        this.artifacts = artifacts;
        for (CostClass c : CostClass.values()) {
            queues.put(c, driver.createOutputTopic(topics.evaluationRequests(c).name(), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()));
            evaluated.put(c, 0);
        }
        results = driver.createInputTopic(topics.cvResults.name(), topics.cvResults.keySerde().serializer(),
                topics.cvResults.valueSerde().serializer());
    }

    /** Evaluates everything queued, until nothing is left; returns how many requests it evaluated. */
    public int drain() {
        int n = 0;
        boolean more = true;
        while (more) {
            more = false;
            for (CostClass c : CostClass.values()) {
                TestOutputTopic<byte[], byte[]> queue = queues.get(c);
                while (!queue.isEmpty()) {
                    evaluate(queue.readRecord(), topics.evaluationRequests(c).name());
                    evaluated.merge(c, 1, Integer::sum);
                    n++;
                    more = true;
                }
            }
        }
        return n;
    }

    private void evaluate(TestRecord<byte[], byte[]> r, String topic) {
        Evaluations.Source source = new Evaluations.Source(topic, 0, -1);
        SampleKey key;
        EvaluationRequest request;
        try {
            key = topics.evaluationRequests.keySerde().deserializer().deserialize(topic, r.key());
            request = topics.evaluationRequests.valueSerde().deserializer().deserialize(topic, r.value());
        } catch (RuntimeException e) {
            deadLetters.add(Evaluations.unreadable(source, r.key(), r.value(), e).letter());
            return;
        }
        Optional<DeterministicEvaluator> evaluator = Optional.ofNullable(instances.computeIfAbsent(request.getEvaluator(),
                id -> registry.newInstance(id).orElse(null)));
        Evaluations.Outcome outcome = Evaluations.run(evaluator, key, request, artifacts, source, r.key(), r.value());
        if (outcome.letter() != null) {
            deadLetters.add(outcome.letter());
        }
        results.pipeInput(key, outcome.result());
        written.add(org.apache.kafka.streams.KeyValue.pair(key, outcome.result()));
    }

    /**
     * Writes every result again, as a worker that crashed after writing them but before committing its
     * offsets would: the same metrics, a later evaluation time and another duration.
     */
    public int replayAll() {
        for (var kv : written) {
            DeterministicResult again = DeterministicResult.newBuilder(kv.value)
                    .setEvaluatedAt(kv.value.getEvaluatedAt().plusSeconds(30))
                    .setDurationMicros(kv.value.getDurationMicros() + 1234)
                    .build();
            results.pipeInput(kv.key, again);
        }
        return written.size();
    }

    /** Requests evaluated so far from the queue of this class. */
    public int evaluated(CostClass c) {
        return evaluated.get(c);
    }

    /** Dead letters the evaluations produced, in order. */
    public List<DeadLetter> deadLetters() {
        return List.copyOf(deadLetters);
    }
}
