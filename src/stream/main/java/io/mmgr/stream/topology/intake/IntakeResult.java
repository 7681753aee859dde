package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.EvaluationRequest;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import java.util.List;

/** What intake made of a record at each step; never serialized (intake runs in one sub-topology). */
public sealed interface IntakeResult {

    /** A readable, valid event, with its benchmark item once joined (null when there is none). */
    record Accepted(RawRecord raw, GenerationEvent event, String generationId, BenchmarkItem item) implements IntakeResult {
        public Accepted withItem(BenchmarkItem joined) {
            return new Accepted(raw, event, generationId, joined);
        }
    }

    /**
     * The sample's plan (with the results of the light evaluations intake ran itself), the work it asks of
     * the evaluation worker (image and video evaluations) and the judge, and the dead letters of light
     * evaluations that failed.
     */
    record Planned(SampleKey key, GenerationEvent event, BenchmarkItem item, SamplePlan plan,
                   List<EvaluationRequest> evaluations, List<JudgeRequest> judgeRequests,
                   List<DeadLetter> deadLetters) implements IntakeResult {
    }

    /** A benchmark item that passed the checks, with its key {@code <task>/<sampleId>}; a null item deletes it. */
    record ValidItem(String key, BenchmarkItem item) implements IntakeResult {
    }

    /** A human label that passed the checks. */
    record ValidLabel(HumanLabel label) implements IntakeResult {
    }

    /** A record that cannot be scored, with its dead letter. */
    record Rejected(DeadLetter letter) implements IntakeResult {
    }
}
