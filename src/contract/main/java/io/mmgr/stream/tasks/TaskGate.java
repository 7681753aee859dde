package io.mmgr.stream.tasks;

/** Turns a sample's arrived metrics into its gated primary score. Pure and deterministic. */
@FunctionalInterface
public interface TaskGate {
    GateResult evaluate(GateInput input);
}
