package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.RobotTrial;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.SimulatedTask;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * A simulated Magma agent: Mind2Web episodes (each step right with a probability that rises with
 * skill, from {@link Mind2WebEpisodes}), ScreenSpot clicks (inside the target box or beside it) and
 * LIBERO-Spatial tasks of 50 trials (the protocol), each trial a success with probability skill.
 */
public final class MagmaSimulation implements SimulatedTask {

    static final int STEPS = 4;
    static final int LIBERO_TRIALS = 50;
    static final String SCREENSPOT = "screenspot";
    static final String LIBERO = "libero-spatial";

    private Mind2WebEpisodes episodes;

    @Override
    public String family() {
        return MagmaTasks.FAMILY;
    }

    @Override
    public List<BenchmarkItem> benchmark(int items, long seed, Path dir) {
        episodes = new Mind2WebEpisodes(items, STEPS, seed, "episode-");
        List<BenchmarkItem> out = new ArrayList<>(episodes.items());
        for (int i = 0; i < items; i++) {
            double x = 40 + 25 * (i % 20);
            out.add(BenchmarkItem.newBuilder().setTask(SCREENSPOT).setSampleId("click-" + i).setBenchmark("magma")
                    .setPrompt("click the " + (i % 2 == 0 ? "'Search' label" : "settings icon"))
                    .setGroundTruth(MagmaTruth.click(List.of(x, 100.0, x + 20, 120.0), i % 2 == 0 ? "text" : "icon")
                            .into(GroundTruth.newBuilder()).build()).build());
        }
        for (int i = 0; i < Math.max(2, items / 2); i++) {
            out.add(BenchmarkItem.newBuilder().setTask(LIBERO).setSampleId("task-" + i).setBenchmark("magma")
                    .setPrompt("LIBERO-Spatial task " + i)
                    .setGroundTruth(MagmaTruth.trials(LIBERO_TRIALS).into(GroundTruth.newBuilder()).build()).build());
        }
        return out;
    }

    @Override
    public Answer answer(BenchmarkItem item, int seed, double skill, Random random, Path dir) {
        switch (item.getTask()) {
            case Mind2WebEpisodes.TASK -> {
                int n = Integer.parseInt(item.getSampleId().substring(item.getSampleId().lastIndexOf('-') + 1));
                // a step's accuracy rises with skill; an episode succeeds only when every step does
                double stepAccuracy = 0.55 + 0.45 * skill;
                List<UiAction> pred = workload(item).predicted(n, stepAccuracy, new SplittableRandom(random.nextLong()));
                long wrong = pred.stream().filter(a -> "other".equals(a.getElement())).count();
                return new Answer("ui", List.of(), GenerationInputs.newBuilder().setUiActions(pred).build(),
                        wrong == 0 ? "none" : wrong + " wrong steps");
            }
            case SCREENSPOT -> {
                List<Double> box = truth(item).targetBox();
                boolean hit = random.nextDouble() < skill;
                double x = hit ? (box.get(0) + box.get(2)) / 2 : box.get(2) + 6 + random.nextInt(30);
                UiAction click = UiAction.newBuilder().setPoint(List.of(x, (box.get(1) + box.get(3)) / 2)).build();
                return new Answer("ui", List.of(), GenerationInputs.newBuilder().setUiActions(List.of(click)).build(),
                        hit ? "none" : "clicked beside the target");
            }
            case LIBERO -> {
                List<RobotTrial> trials = new ArrayList<>();
                for (int t = 0; t < LIBERO_TRIALS; t++) {
                    trials.add(RobotTrial.newBuilder().setTrial(t).setSuccess(random.nextDouble() < skill).build());
                }
                long ok = trials.stream().filter(RobotTrial::getSuccess).count();
                return new Answer("robot", List.of(), GenerationInputs.newBuilder().setTrials(trials).build(),
                        ok + " of " + LIBERO_TRIALS + " trials succeeded");
            }
            default -> throw new IllegalArgumentException("the Magma simulation has no task '" + item.getTask() + "'");
        }
    }

    /** The simulation answers its own items, whose payload it wrote. */
    private static MagmaTruth truth(BenchmarkItem item) {
        try {
            return MagmaTruth.of(item.getGroundTruth());
        } catch (EvaluationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Gold steps come from the item itself, so an answer needs no state from {@link #benchmark}. */
    private Mind2WebEpisodes workload(BenchmarkItem item) {
        if (episodes == null) {
            int steps = truth(item).uiSteps().size();
            episodes = new Mind2WebEpisodes(Integer.MAX_VALUE, steps, 0, "episode-");
        }
        return episodes;
    }
}
