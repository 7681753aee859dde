package io.mmgr.stream.judge;

import io.mmgr.stream.tasks.ArtifactResolver;
import java.util.Map;

/**
 * What judges a request besides the worker's own judge: a panel of judges and repeated samples
 * ({@code judge.panel.PanelSettings} implements it). An interface here, so that this package does not depend on the
 * panel's, which builds on the engine.
 */
public interface PanelHook {

    /** One judge, asked once, at realtime prices. */
    PanelHook NONE = new Single(1.0);

    /** Judges per rubric, the worker's own included. */
    int judges();

    /** Answers per judge and rubric. */
    int samples();

    /** The price factor of the lane the requests go through, for the cost projection. */
    double laneDiscount();

    PanelHook withLaneDiscount(double factor);

    /** Hands {@code engine}'s judging to the panel, if there is one; {@code projection} is named in its judges' holds. */
    void attach(JudgeEngine engine, CostProjection projection, Map<String, String> env, ArtifactResolver artifacts,
                JudgeMetrics metrics);

    /** No panel: the engine judges alone. */
    record Single(double laneDiscount) implements PanelHook {
        @Override
        public int judges() {
            return 1;
        }

        @Override
        public int samples() {
            return 1;
        }

        @Override
        public PanelHook withLaneDiscount(double factor) {
            return new Single(factor);
        }

        @Override
        public void attach(JudgeEngine engine, CostProjection projection, Map<String, String> env, ArtifactResolver artifacts,
                           JudgeMetrics metrics) {
        }
    }
}
