package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import java.util.List;
import java.util.Map;

/**
 * A task's judge rubric: the structured, task-specific evaluation prompt the seed describes (with
 * image and video variants), the answer it expects, and how an answer becomes metrics. Rubrics are
 * plain Java; the judge worker does the calling. Each {@link TaskFamily} lists its rubrics.
 */
public interface JudgeRubric {

    /** Rubric id; equal to the task id ({@link TaskSpec#rubric()}). */
    String id();

    /**
     * Version recorded on every verdict and part of the verdict cache key. Changes whenever a prompt
     * template, a metric or the answer format changes, so a reworded prompt never reuses old verdicts.
     */
    String version();

    /** Every metric of the rubric, in the order the seed lists them. */
    List<RubricMetric> metrics();

    /** The metrics asked for a modality (video-only metrics are left out for images). */
    default List<RubricMetric> metricsFor(String modality) {
        return metrics().stream().filter(m -> m.appliesTo(modality)).toList();
    }

    /** Modalities this rubric has a prompt for. */
    java.util.Set<String> modalities();

    /** The prompt for one generation; throws with a user-facing reason when an input the seed names is missing. */
    JudgePrompt prompt(GenerationEvent event, BenchmarkItem item) throws EvaluationException;

    /** JSON schema (as plain maps and lists) of the answer for a modality, for providers with structured output. */
    Map<String, Object> answerSchema(String modality);

    /** Validates a judge's answer text (tolerant of fences and prose around the JSON) into metrics. */
    RubricAnswer parse(String modality, String answerText) throws RubricAnswerException;
}
