package io.mmgr.stream.bench;

import io.mmgr.stream.artifacts.ArtifactRefs;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.maze.MazeAnswerVideos;
import io.mmgr.stream.tasks.maze.MazeBand;
import io.mmgr.stream.tasks.maze.MazeBenchmarkGenerator;
import io.mmgr.stream.vision.MediaException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Video samples: maze answers as short MP4s of the agent walking (the evaluation worker's video lane), with known
 * outcomes: every other answer walks the whole solution, the others stop short of the target, so the pixel gate
 * tells them apart. Small mazes, so a video is 48-64 frames of 320 x 320.
 */
public final class MazeVideoWorkload implements Workload {

    private final List<BenchmarkItem> items;
    /** Per item: the correct answer, then the one that stops short. */
    private final List<ArtifactRef[]> answers;

    private MazeVideoWorkload(List<BenchmarkItem> items, List<ArtifactRef[]> answers) {
        this.items = items;
        this.answers = answers;
    }

    /**
     * Generates {@code count} small mazes and their two answer videos into {@code dir} (which the scorer must be allowed
     * to read). Their sample ids start with "video-", apart from {@link MazeWorkload}'s mazes of the same generator.
     */
    public static MazeVideoWorkload generate(Path dir, int count, long seed) throws IOException {
        List<BenchmarkItem> items = new ArrayList<>();
        List<ArtifactRef[]> answers = new ArrayList<>();
        // a maze whose solution is under five cells has no answer that stops short: four candidates per maze kept
        for (BenchmarkItem generated : MazeBenchmarkGenerator.generate(dir, 4 * count, List.of(MazeBand.EASY), seed).items()) {
            if (items.size() == count) {
                break;
            }
            if (!MazeAnswerVideos.canStopShort(generated)) {
                continue;
            }
            BenchmarkItem item = BenchmarkItem.newBuilder(generated).setSampleId("video-" + generated.getSampleId()).build();
            ArtifactRef[] two = new ArtifactRef[2];
            for (int i = 0; i < 2; i++) {
                Path file = dir.resolve(item.getSampleId() + (i == 0 ? "-correct" : "-incomplete") + ".mp4");
                try {
                    MazeAnswerVideos.write(item, i == 0, file);
                } catch (EvaluationException | MediaException e) {
                    throw new IOException("cannot write the answer video " + file + ": " + e.getMessage(), e);
                }
                two[i] = ArtifactRefs.file("output", file, Files.readAllBytes(file), "video/mp4", null, null);
            }
            items.add(item);
            answers.add(two);
        }
        if (items.size() < count) {
            throw new IOException("only " + items.size() + " of " + (4 * count) + " generated mazes have a solution of five cells");
        }
        return new MazeVideoWorkload(items, answers);
    }

    @Override
    public String description() {
        return "video: maze answers, 48-64 frame MP4s";
    }

    @Override
    public List<BenchmarkItem> items() {
        return items;
    }

    /** Whether the n-th answer walks the whole solution (else it stops short of the target). */
    public static boolean correct(long n) {
        return n % 2 == 0;
    }

    @Override
    public GenerationEvent event(String runId, long n) {
        int i = (int) (n % items.size());
        BenchmarkItem item = items.get(i);
        long checkpoint = n / items.size();
        return GenerationEvent.newBuilder().setRunId(runId).setModel("load-video-model").setCheckpointId("ckpt-" + checkpoint)
                .setTrainingStep(checkpoint * 1000).setTask(item.getTask()).setSampleId(item.getSampleId()).setModality("video")
                .setArtifacts(List.of(answers.get(i)[correct(n) ? 0 : 1])).setProducedAt(Instant.now()).build();
    }
}
