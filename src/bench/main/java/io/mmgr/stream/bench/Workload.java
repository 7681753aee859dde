package io.mmgr.stream.bench;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import java.util.List;

/** A synthetic load: benchmark items, and the n-th generation event of a run (each a distinct sample). */
public interface Workload {

    /** What a sample is, for reports, e.g. "light: Mind2Web, 5 UI steps". */
    String description();

    List<BenchmarkItem> items();

    GenerationEvent event(String runId, long n);
}
