package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SampleScorer;

/**
 * The step files of {@code eval mind2web} and {@code eval aitw} as samples: one episode is one event
 * (predicted steps in {@code inputs.uiActions}) and its item (gold steps in {@code groundTruth.uiSteps}).
 */
final class UiEpisodes {

    private UiEpisodes() {
    }

    /** A step the model did not produce: an empty action, as the stream reads it. */
    static UiAction notPredicted() {
        return UiAction.newBuilder().build();
    }

    /** The line's {@code pred} object, or null when it is missing or null (no prediction for the step). */
    static JsonNode pred(JsonlInput.Line line, JsonNode n) {
        JsonNode p = n.get("pred");
        if (p == null || p.isNull()) {
            return null;
        }
        if (!p.isObject()) {
            throw line.error("'pred' must be an object");
        }
        return p;
    }

    /**
     * Scores one episode through {@link SampleScorer} and returns the evaluator's result for it.
     *
     * @throws CliInputException when the stream would not score the episode (its lines were checked, so
     *                           this names the episode)
     */
    static <T> T score(SampleScorer scorer, String task, EpisodeSteps.Episode<UiAction, UiAction> episode,
                       String evaluator, Class<T> type) {
        try {
            return FamilySample.score(scorer,
                    FamilySample.event(task, "ui", GenerationInputs.newBuilder().setUiActions(episode.predictions()).build()),
                    FamilySample.item(task, GroundTruth.newBuilder().setUiSteps(episode.gold()).build()),
                    EvalInputs.none(), evaluator).detail(type);
        } catch (EvaluationException e) {
            throw new CliInputException("episode '" + episode.id() + "': " + e.getMessage());
        }
    }
}
