package io.mmgr.stream.tasks.magma;

import com.fasterxml.jackson.databind.JsonNode;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.CaseFields;
import io.mmgr.stream.tasks.EvalAdapter;
import io.mmgr.stream.tasks.EvalCase;
import io.mmgr.stream.tasks.EvalSample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The step files of {@code eval mind2web} and {@code eval aitw}: each line is one step ({@code episode},
 * {@code step}, {@code gold}, {@code pred}) and one episode is one sample, its predicted steps in
 * {@code inputs.uiActions} and its gold steps in {@code groundTruth.uiSteps}. Episodes come in the order
 * of their first line. Steps of an episode must be numbered 0, 1, 2, ... without gaps or repeats: a gap
 * is a lost gold line, which would silently shorten the episode.
 */
final class UiEpisodeCases {

    /** One line's gold step and prediction, checked with the stream's own step rules. */
    record Step(UiAction gold, UiAction prediction) {
    }

    /** Reads a line's {@code gold} and {@code pred}; its errors are the line's ({@link EvalCase#error}). */
    @FunctionalInterface
    interface StepReader {
        Step read(EvalCase c);
    }

    private record Entry(EvalCase c, Step step) {
    }

    private UiEpisodeCases() {
    }

    /** A task's step lines as its episodes ({@link #episodes}). */
    static EvalAdapter.Grouping grouping(String task, StepReader steps) {
        return cases -> episodes(task, cases, steps);
    }

    /**
     * The episodes of these lines as samples of {@code task}, keyed by episode id. Each line is read whole
     * and its step number checked before the next line is read, so a bad line is the first one named;
     * gaps can only show once every line is in.
     */
    private static List<EvalAdapter.Group> episodes(String task, List<EvalCase> cases, StepReader steps) {
        Map<String, TreeMap<Integer, Entry>> episodes = new LinkedHashMap<>();
        for (EvalCase c : cases) {
            String episode = CaseFields.requiredText(c, c.fields(), "episode");
            int step = CaseFields.requiredInt(c, c.fields(), "step");
            Step read = steps.read(c);
            if (step < 0) {
                throw c.error("'step' must not be negative");
            }
            Entry previous = episodes.computeIfAbsent(episode, k -> new TreeMap<>())
                    .putIfAbsent(step, new Entry(c, read));
            if (previous != null) {
                throw c.error("episode '" + episode + "' step " + step + " appears twice (first on line "
                        + previous.c().line() + ")");
            }
        }
        List<EvalAdapter.Group> out = new ArrayList<>(episodes.size());
        for (Map.Entry<String, TreeMap<Integer, Entry>> e : episodes.entrySet()) {
            // where the episode starts in the file, for an error that names it
            int first = e.getValue().values().stream().mapToInt(s -> s.c().line()).min().orElseThrow();
            out.add(new EvalAdapter.Group(e.getKey(), sample(task, e.getKey(), e.getValue()), first));
        }
        return out;
    }

    private static EvalSample sample(String task, String episode, TreeMap<Integer, Entry> steps) {
        List<UiAction> gold = new ArrayList<>(steps.size());
        List<UiAction> predictions = new ArrayList<>(steps.size());
        int expected = 0;
        for (Map.Entry<Integer, Entry> s : steps.entrySet()) {
            if (s.getKey() != expected) {
                throw s.getValue().c().error("episode '" + episode + "' has step " + s.getKey()
                        + " but no step " + expected + " (steps run 0, 1, 2, ... without gaps)");
            }
            gold.add(s.getValue().step().gold());
            predictions.add(s.getValue().step().prediction());
            expected++;
        }
        return new EvalSample(
                EvalSample.event(task, "ui", GenerationInputs.newBuilder().setUiActions(predictions).build()),
                EvalSample.item(task, MagmaTruth.steps(gold).into(GroundTruth.newBuilder()).build()));
    }

    /**
     * A step the model did not produce: an empty action, as the stream reads it
     * ({@link MagmaRecords#notPredicted}).
     */
    static UiAction notPredicted() {
        return UiAction.newBuilder().build();
    }

    /** The line's {@code pred} object, or null when it is missing or null (no prediction for the step). */
    static JsonNode pred(EvalCase c) {
        JsonNode p = c.fields().get("pred");
        if (p == null || p.isNull()) {
            return null;
        }
        if (!p.isObject()) {
            throw c.error("'pred' must be an object");
        }
        return p;
    }
}
