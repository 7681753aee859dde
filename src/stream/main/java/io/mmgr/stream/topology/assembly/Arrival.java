package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.avro.SamplePlan;

/** Something that arrived for a sample: its plan, or one part of its score. */
public sealed interface Arrival {

    /** The plan, with the parts intake evaluated itself (light evaluations) on it. */
    record Plan(SamplePlan plan) implements Arrival {
    }

    record Part(PartResult part) implements Arrival {
    }
}
