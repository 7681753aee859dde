package io.mmgr.stream.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Groups step lines ({@code episode}, {@code step}, gold, prediction) into episodes, in file order
 * of first appearance. Steps of an episode must be numbered 0, 1, 2, ... without gaps or repeats:
 * a gap is a lost gold line, which would silently shorten the episode.
 *
 * @param <G> gold step type
 * @param <P> predicted step type (null = the model produced no step here)
 */
final class EpisodeSteps<G, P> {

    private record Entry<G, P>(JsonlInput.Line line, G gold, P prediction) {
    }

    /** One episode's gold steps and predictions (with nulls), in step order. */
    record Episode<G, P>(String id, List<G> gold, List<P> predictions) {
    }

    private final Map<String, TreeMap<Integer, Entry<G, P>>> episodes = new LinkedHashMap<>();

    void add(JsonlInput.Line line, String episode, int step, G gold, P prediction) {
        if (step < 0) {
            throw line.error("'step' must not be negative");
        }
        TreeMap<Integer, Entry<G, P>> steps = episodes.computeIfAbsent(episode, k -> new TreeMap<>());
        Entry<G, P> previous = steps.putIfAbsent(step, new Entry<>(line, gold, prediction));
        if (previous != null) {
            throw line.error("episode '" + episode + "' step " + step + " appears twice (first on line "
                    + previous.line().number() + ")");
        }
    }

    List<Episode<G, P>> episodes() {
        List<Episode<G, P>> out = new ArrayList<>();
        for (Map.Entry<String, TreeMap<Integer, Entry<G, P>>> e : episodes.entrySet()) {
            List<G> gold = new ArrayList<>();
            List<P> predictions = new ArrayList<>();
            int expected = 0;
            for (Map.Entry<Integer, Entry<G, P>> s : e.getValue().entrySet()) {
                if (s.getKey() != expected) {
                    throw s.getValue().line().error("episode '" + e.getKey() + "' has step " + s.getKey()
                            + " but no step " + expected + " (steps run 0, 1, 2, ... without gaps)");
                }
                gold.add(s.getValue().gold());
                predictions.add(s.getValue().prediction());
                expected++;
            }
            out.add(new Episode<>(e.getKey(), gold, predictions));
        }
        return out;
    }
}
