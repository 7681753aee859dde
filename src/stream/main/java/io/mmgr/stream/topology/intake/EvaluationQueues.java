package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.CostClass;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.contract.Topics;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.apache.kafka.streams.processor.RecordContext;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * Sends each evaluation request to the queue of its cost class, as its evaluator declares it, so that
 * images never wait behind videos in the evaluation worker. Light evaluations run at intake
 * ({@link LightEvaluations}) and send no request; the light queue is kept (the worker still reads it) for
 * the requests an earlier version wrote.
 */
final class EvaluationQueues implements TopicNameExtractor<SampleKey, EvaluationRequest> {

    private final Topics topics;
    private final EvaluatorRegistry evaluators;

    EvaluationQueues(Topics topics, EvaluatorRegistry evaluators) {
        this.topics = topics;
        this.evaluators = evaluators;
    }

    @Override
    public String extract(SampleKey key, EvaluationRequest request, RecordContext context) {
        return topics.evaluationRequests(evaluators.costClass(request.getEvaluator(), request.getEvent(), request.getItem()))
                .name();
    }

    /** What the topology description shows. */
    @Override
    public String toString() {
        return "by cost class: " + Arrays.stream(CostClass.values())
                .map(c -> c.label() + " -> " + topics.evaluationRequests(c).name()).collect(Collectors.joining(", "));
    }
}
