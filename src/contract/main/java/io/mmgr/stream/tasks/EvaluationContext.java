package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;

/** Everything an evaluator may read: the generation, its benchmark item and the artifact store. */
public record EvaluationContext(GenerationEvent event, BenchmarkItem item, ArtifactResolver artifacts) {
}
