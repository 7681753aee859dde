package io.mmgr.stream.tasks.magma;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.UiAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic Mind2Web episodes with known answers, for the demo's simulation and the load bench: items
 * with {@code steps} gold steps, and predictions that get a step right with a given probability (a
 * seeded generator, so runs repeat).
 */
public class Mind2WebEpisodes {

    public static final String TASK = "mind2web";

    private final int items;
    private final int steps;
    private final SplittableRandom random;
    private final String idPrefix;

    public Mind2WebEpisodes(int items, int steps, long seed) {
        this(items, steps, seed, "load-ep-");
    }

    /** @param idPrefix sample ids are this prefix and the item number */
    public Mind2WebEpisodes(int items, int steps, long seed, String idPrefix) {
        this.items = items;
        this.steps = steps;
        this.random = new SplittableRandom(seed);
        this.idPrefix = idPrefix;
    }

    /** The n-th event with 70 % of its steps right. */
    public GenerationEvent event(String runId, long n) {
        return event(runId, n, 0.7);
    }

    public List<BenchmarkItem> items() {
        List<BenchmarkItem> out = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            out.add(BenchmarkItem.newBuilder().setTask(TASK).setSampleId(idPrefix + i).setBenchmark("magma")
                    .setGroundTruth(MagmaTruth.steps(gold(i)).into(GroundTruth.newBuilder()).build()).build());
        }
        return out;
    }

    /** The gold steps of item {@code item}. */
    public List<UiAction> gold(int item) {
        List<UiAction> out = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            double x = 40.0 * s;
            out.add(UiAction.newBuilder().setElement("el-" + item + "-" + s).setBbox(List.of(x, 0.0, x + 30, 20.0))
                    .setOp(s % 2 == 0 ? "CLICK" : "TYPE").setValue(s % 2 == 0 ? null : "query " + item).build());
        }
        return out;
    }

    /** The n-th event of a run: item n mod items, checkpoint n / items (so every checkpoint covers the benchmark). */
    public GenerationEvent event(String runId, long n, double stepAccuracy) {
        int item = (int) (n % items);
        long checkpoint = n / items;
        List<UiAction> pred = predicted(item, stepAccuracy, random);
        return GenerationEvent.newBuilder().setRunId(runId).setModel("load-model").setCheckpointId("ckpt-" + checkpoint)
                .setTrainingStep(checkpoint * 1000).setTask(TASK).setSampleId(idPrefix + item).setModality("ui")
                .setInputs(GenerationInputs.newBuilder().setUiActions(pred).build()).setProducedAt(Instant.now()).build();
    }

    /** A predicted episode: each gold step taken on the right element with probability {@code stepAccuracy}. */
    public List<UiAction> predicted(int item, double stepAccuracy, SplittableRandom random) {
        List<UiAction> pred = new ArrayList<>();
        for (UiAction g : gold(item)) {
            boolean right = random.nextDouble() < stepAccuracy;
            pred.add(UiAction.newBuilder().setElement(right ? g.getElement() : "other").setOp(g.getOp())
                    .setValue(g.getValue()).build());
        }
        return pred;
    }

    public int steps() {
        return steps;
    }
}
