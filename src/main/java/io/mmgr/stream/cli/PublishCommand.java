package io.mmgr.stream.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.app.Endpoints;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.topology.SampleKeys;
import io.mmgr.stream.topology.Topics;
import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code mmgr publish}: sends JSONL records (same fields as the Avro schemas) to the scorer's topics. */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Publish a JSONL file: one record a line, with the field names of the Avro schema "
                + "(schemas/GenerationEvent.avsc, BenchmarkItem.avsc; labels: SampleKey fields + HumanLabel fields).",
                "Bad lines are reported with their number and skipped; the exit code is then 1."})
public class PublishCommand implements Callable<Integer> {

    enum Kind { generations, benchmark, labels }

    @Parameters(index = "0", paramLabel = "FILE.jsonl")
    Path file;

    @Option(names = "--kind", defaultValue = "generations", description = "generations, benchmark or labels (default: ${DEFAULT-VALUE})")
    Kind kind;

    @Mixin
    ConnectionOptions connection;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isReadable(file)) {
            throw new IllegalArgumentException("cannot read " + file);
        }
        Endpoints ep = connection.resolve();
        PrintWriter out = spec.commandLine().getOut();
        long total;
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            total = lines.filter(l -> !l.isBlank()).count();
        }
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        AtomicLong sent = new AtomicLong();
        try (SchemaRegistryClient registry = new SchemaRegistryClient(ep.registryUrl(), connection.registryProperties())) {
            AvroSerdes serdes = new AvroSerdes(registry, true);
            Topics topics = new Topics(ep.topicPrefix(), 1, (short) 1, serdes);
            Map<String, Object> conf = connection.kafkaProperties(ep.bootstrapServers());
            conf.put("acks", "all");
            conf.put("enable.idempotence", "true");
            conf.put("linger.ms", "5");
            Progress progress = new Progress(spec.commandLine().getErr(), total, kind.name());
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
                 BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String line;
                int lineNo = 0;
                while ((line = reader.readLine()) != null) {
                    lineNo++;
                    if (line.isBlank()) {
                        continue;
                    }
                    ProducerRecord<byte[], byte[]> record;
                    try {
                        record = toRecord(line, topics, producer);
                    } catch (RuntimeException e) {
                        errors.add("line " + lineNo + ": " + e.getMessage());
                        progress.step();
                        continue;
                    }
                    int n = lineNo;
                    producer.send(record, (meta, ex) -> {
                        if (ex != null) {
                            errors.add("line " + n + ": not published: " + ex.getMessage());
                        } else {
                            sent.incrementAndGet();
                        }
                        progress.step();
                    });
                }
                producer.flush();
            }
            progress.finish();
            String topic = switch (kind) {
                case generations -> topics.generations.name();
                case benchmark -> topics.benchmark.name();
                case labels -> topics.humanLabels.name();
            };
            out.printf("published %d %s record(s) to %s%s%n", sent.get(), kind, topic,
                    errors.isEmpty() ? "" : " (" + errors.size() + " line(s) skipped)");
        }
        errors.stream().sorted().limit(50).forEach(e -> spec.commandLine().getErr().println("  " + e));
        if (errors.size() > 50) {
            spec.commandLine().getErr().println("  ... and " + (errors.size() - 50) + " more");
        }
        return errors.isEmpty() ? 0 : 1;
    }

    private ProducerRecord<byte[], byte[]> toRecord(String line, Topics topics, KafkaProducer<byte[], byte[]> producer) {
        switch (kind) {
            case generations -> {
                GenerationEvent e = JsonAvro.read(line, GenerationEvent.class);
                String topic = topics.generations.name();
                byte[] key = SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8);
                byte[] value = topics.generations.valueSerde().serializer().serialize(topic, e);
                return new ProducerRecord<>(topic, key, value);
            }
            case benchmark -> {
                BenchmarkItem item = JsonAvro.read(line, BenchmarkItem.class);
                String topic = topics.benchmark.name();
                byte[] key = SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8);
                return new ProducerRecord<>(topic, key, topics.benchmark.valueSerde().serializer().serialize(topic, item));
            }
            case labels -> {
                JsonNode node = JsonOutput.parse(line);
                ObjectNode keyPart = JsonOutput.MAPPER.createObjectNode();
                ObjectNode labelPart = ((ObjectNode) node).deepCopy();
                for (String f : List.of("runId", "checkpointId", "task", "sampleId", "seed")) {
                    if (node.has(f)) {
                        keyPart.set(f, node.get(f));
                        labelPart.remove(f);
                    }
                }
                if (!labelPart.has("labeledAt")) {
                    labelPart.put("labeledAt", System.currentTimeMillis());
                }
                SampleKey key = JsonAvro.read(keyPart, SampleKey.class);
                HumanLabel label = JsonAvro.read(labelPart, HumanLabel.class);
                String topic = topics.humanLabels.name();
                int partition = SampleKeys.partition(key, producer.partitionsFor(topic).size());
                return new ProducerRecord<>(topic, partition, topics.humanLabels.keySerde().serializer().serialize(topic, key),
                        topics.humanLabels.valueSerde().serializer().serialize(topic, label));
            }
            default -> throw new IllegalStateException();
        }
    }
}
