package io.mmgr.stream.topology.frechet;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.FrechetStat;

/** What the FID processor emits: a row's new distance, or a sample it cannot use; never serialized. */
record FrechetOutcome(FrechetStat stat, DeadLetter letter) {
}
