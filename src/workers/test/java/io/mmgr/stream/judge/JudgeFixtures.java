package io.mmgr.stream.judge;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.vision.RgbImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;

/** Judge requests for tests: Math text answers (no artifacts) and Math image answers (inline PNG). */
public final class JudgeFixtures {

    private JudgeFixtures() {
    }

    /** A Math request whose problem text carries the scripted server's {@code case=} marker. */
    public static JudgeRequest mathText(String run, String caseName, String answerText) {
        GenerationEvent e = GenerationEvent.newBuilder().setRunId(run).setModel("m").setCheckpointId("ckpt-1")
                .setTrainingStep(1).setTask("math").setSampleId(caseName).setModality("text")
                .setInputs(GenerationInputs.newBuilder().setText(answerText).build())
                .setProducedAt(Instant.now()).build();
        return request(e, mathItem(caseName));
    }

    /** A Math request answered with an image (an inline PNG of the given colour). */
    public static JudgeRequest mathImage(String run, String caseName, int rgb) {
        GenerationEvent e = GenerationEvent.newBuilder().setRunId(run).setModel("m").setCheckpointId("ckpt-1")
                .setTrainingStep(1).setTask("math").setSampleId(caseName).setModality("image")
                .setArtifacts(List.of(png(RgbImage.filled(16, 16, rgb), "output")))
                .setProducedAt(Instant.now()).build();
        return request(e, mathItem(caseName));
    }

    static BenchmarkItem mathItem(String caseName) {
        return BenchmarkItem.newBuilder().setTask("math").setSampleId(caseName)
                .setPrompt("case=" + caseName + " Solve 2x = 8.")
                .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build();
    }

    static JudgeRequest request(GenerationEvent e, BenchmarkItem item) {
        return JudgeRequest.newBuilder()
                .setRequestId(sha256(e.getRunId() + "|" + e.getTask() + "|" + e.getSampleId() + "|" + e.getSeed()))
                .setGenerationId("gen-" + e.getSampleId())
                .setRubric(e.getTask())
                .setEvent(e)
                .setItem(item)
                .setRequestedAt(Instant.now())
                .build();
    }

    public static SampleKey key(JudgeRequest r) {
        GenerationEvent e = r.getEvent();
        return new SampleKey(e.getRunId(), e.getCheckpointId(), e.getTask(), e.getSampleId(), e.getSeed());
    }

    public static ArtifactRef png(RgbImage image, String role) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(image.toBufferedImage(), "png", out);
            byte[] bytes = out.toByteArray();
            return ArtifactRef.newBuilder().setRole(role).setMediaType("image/png")
                    .setUri("data:image/png;base64," + Base64.getEncoder().encodeToString(bytes))
                    .setSha256(sha256(bytes)).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String sha256(String s) {
        return sha256(s.getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
