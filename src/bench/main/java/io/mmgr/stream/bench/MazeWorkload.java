package io.mmgr.stream.bench;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * Heavy samples: maze answers as 512 x 512 PNGs scored by the pixel pipeline. The benchmark's own
 * renderings serve as answers with known outcomes: every fourth answer is the problem image (no
 * path drawn, so the target is never reached), the others the solution image (correct).
 */
public final class MazeWorkload implements Workload {

    private final List<BenchmarkItem> items;

    private MazeWorkload(List<BenchmarkItem> items) {
        this.items = items;
    }

    /** Generates {@code count} mazes of all difficulty bands into {@code dir} (which the scorer must be allowed to read). */
    public static MazeWorkload generate(Path dir, int count, long seed) throws IOException {
        return new MazeWorkload(MazeBenchmarkGenerator.generate(dir, count, List.of(MazeBand.values()), seed).items());
    }

    @Override
    public String description() {
        return "heavy: maze answers, " + MazeBenchmarkGenerator.CANVAS + "x" + MazeBenchmarkGenerator.CANVAS + " PNG";
    }

    @Override
    public List<BenchmarkItem> items() {
        return items;
    }

    /** Whether the n-th answer is the correct one (else the problem image: no path). */
    public static boolean correct(long n) {
        return n % 4 != 3;
    }

    @Override
    public GenerationEvent event(String runId, long n) {
        BenchmarkItem item = items.get((int) (n % items.size()));
        long checkpoint = n / items.size();
        String role = correct(n) ? "solution" : "problem";
        ArtifactRef image = item.getArtifacts().stream().filter(a -> a.getRole().equals(role)).findFirst().orElseThrow();
        ArtifactRef output = ArtifactRef.newBuilder(image).setRole("output").build();
        return GenerationEvent.newBuilder().setRunId(runId).setModel("load-image-model").setCheckpointId("ckpt-" + checkpoint)
                .setTrainingStep(checkpoint * 1000).setTask(item.getTask()).setSampleId(item.getSampleId()).setModality("image")
                .setArtifacts(List.of(output)).setProducedAt(Instant.now()).build();
    }
}
