package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.CheckpointDone;
import io.mmgr.stream.avro.CheckpointKey;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.contract.CheckpointState;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record the scorer cannot read because the schema registry is down is not bad data: it is not
 * dead-lettered, and it is scored once the registry is back. (An event written with a schema id the
 * scorer has not seen yet makes it ask the registry.)
 */
@Tag("integration")
class RegistryOutageTest {

    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    static GenerationEvent event(String sample) {
        return GenerationEvent.newBuilder().setRunId("outage").setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("mind2web").setSampleId(sample).setModality("ui").setProducedAt(Instant.ofEpochMilli(1))
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
    }

    /** Intake's logger while it waits for the registry to resolve a schema (topology.intake.RegistryPatience). */
    static final String PATIENCE = "io.mmgr.stream.topology.intake.RegistryPatience - schema registry unavailable, waiting";

    /** Intake's log lines saying it waits for the registry: {@code asked} names the request it cannot make. */
    static long waits(String log, String asked) {
        return log.lines().filter(l -> l.contains(PATIENCE) && l.contains(asked)).count();
    }

    @Test
    void eventsReadDuringARegistryOutageAreScoredWhenItIsBackNotDeadLettered() throws Exception {
        try (Infrastructure infra = new Infrastructure(dir.resolve("infra"));
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", infra.bootstrapServers()),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            ScorerSettings settings = ScorerSettings.defaults().withPrefix("outage.").withPartitions(1).withStreamThreads(1);
            Topics t = infra.topics("outage.", 1);
            try (ScorerApp app = ScorerApp.start(settings, infra.bootstrapServers(), infra.registryUrl(), dir.resolve("state"),
                    Duration.ofMinutes(2))) {
                BenchmarkItem item = BenchmarkItem.newBuilder().setTask("mind2web").setSampleId("s").setBenchmark("magma")
                        .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(UiAction.newBuilder().setElement("e")
                                .setOp("CLICK").build())).build()).build();
                producer.send(new ProducerRecord<>(t.benchmark.name(), "mind2web/s".getBytes(StandardCharsets.UTF_8),
                        t.benchmark.valueSerde().serializer().serialize(t.benchmark.name(), item))).get();
                Thread.sleep(1000);
                GenerationEvent before = event("s");
                producer.send(new ProducerRecord<>(t.generations.name(), "a".getBytes(StandardCharsets.UTF_8),
                        t.generations.valueSerde().serializer().serialize(t.generations.name(), before))).get();
                ScorerHarness.await(() -> infra.scoreRecords(t), r -> r.containsKey(SampleKeys.of(before)), WAIT,
                        "the sample before the outage");
                // every sub-flow has handled that checkpoint, so each has registered its stores' schemas before the
                // registry goes (else one of them, not intake, is what waits): the marker's answer needs the
                // leaderboard, the comparisons and the status sub-flows
                CheckpointKey c1 = new CheckpointKey("outage", "c1");
                CheckpointDone done = CheckpointDone.newBuilder().setDoneId("before").setRunId("outage").setCheckpointId("c1")
                        .setExpected(1L).setSentAt(Instant.now()).build();
                producer.send(new ProducerRecord<>(t.checkpointDone.name(), t.checkpointDone.keySerde().serializer()
                        .serialize(t.checkpointDone.name(), c1), t.checkpointDone.valueSerde().serializer()
                        .serialize(t.checkpointDone.name(), done))).get();
                ScorerHarness.await(() -> infra.checkpointAnswers(t), a -> a.containsKey(c1)
                        && CheckpointState.COMPLETE.is(a.get(c1).getStatus()), WAIT, "the first checkpoint's answer");

                // a newer producer's event: its schema id is new to the scorer
                GenerationEvent during = GenerationEvent.newBuilder(event("s")).setCheckpointId("c2").build();
                int id = EvolvedEvents.register(infra.registryClient, t.generations.name() + "-value");
                byte[] bytes = EvolvedEvents.write(during, id);
                try (LogCapture log = new LogCapture(Level.WARN)) {
                    infra.stopRegistry();
                    producer.send(new ProducerRecord<>(t.generations.name(), "b".getBytes(StandardCharsets.UTF_8), bytes)).get();
                    // first proof that the scorer read it: intake asks the registry for the new schema id, in vain, and
                    // asks again (it is still waiting, it did not give the record up)
                    String asked = "/schemas/ids/" + id;
                    ScorerHarness.await(() -> waits(log.text(), asked), n -> n >= 2, WAIT,
                            "intake waiting on the registry for schema id " + id);
                    assertThat(infra.deadLetters(t)).as("nothing dead-lettered during the outage").isEmpty();
                    assertThat(infra.scoreRecords(t)).doesNotContainKey(SampleKeys.of(during));
                }

                infra.startRegistry();
                Map<SampleKey, List<SampleScore>> scores = ScorerHarness.await(() -> infra.scoreRecords(t),
                        r -> r.containsKey(SampleKeys.of(during)), WAIT, "the sample read during the outage");
                assertThat(scores.get(SampleKeys.of(during))).hasSize(1);
                assertThat(scores.get(SampleKeys.of(during)).get(0).getPrimary()).isEqualTo(1.0);
                assertThat(infra.deadLetters(t)).isEmpty();
                assertThat(app.streams().state().isRunningOrRebalancing()).isTrue();
            }
        }
    }
}
