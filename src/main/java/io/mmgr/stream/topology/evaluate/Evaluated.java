package io.mmgr.stream.topology.evaluate;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.DeterministicResult;

/**
 * One evaluation's outputs: the result (null when the request itself was unreadable) and, when the
 * generation could not be evaluated, a dead letter. A failed evaluation yields both, so that the
 * sample's score shows the failure instead of waiting forever.
 */
record Evaluated(DeterministicResult result, DeadLetter letter) {
}
