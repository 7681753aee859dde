package io.mmgr.stream.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.HumanLabel;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.GenerationRecords;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.Topics;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Publishes JSONL files of records written with the Avro schemas' field names: generation events,
 * benchmark items or human labels. A bad line is reported with its number and skipped; the rest go out.
 * Lines are held to the scorer's {@link InputLimits} and refuse non-finite numbers, so what the scorer
 * would dead-letter is reported here first; every reported error is cut to {@link #MAX_ERROR_CHARS}.
 */
public final class JsonlPublisher implements AutoCloseable {

    public enum Kind { generations, benchmark, labels }

    /** What a file gave: records sent, and the lines that were not (with why). */
    public record Result(long sent, List<String> errors, String topic) {
    }

    private final SchemaRegistryClient registry;
    private final Topics topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Serializer<GenerationEvent> events;
    private final Serializer<BenchmarkItem> items;
    private final Serializer<SampleKey> labelKeys;
    private final Serializer<HumanLabel> labels;
    private final InputCheck check;

    /** Characters of one reported error kept. */
    public static final int MAX_ERROR_CHARS = 300;

    public JsonlPublisher(Endpoints endpoints, Map<String, Object> kafkaProperties, Map<String, Object> registryProperties) {
        this(endpoints, kafkaProperties, registryProperties, InputLimits.DEFAULTS);
    }

    public JsonlPublisher(Endpoints endpoints, Map<String, Object> kafkaProperties, Map<String, Object> registryProperties,
                          InputLimits limits) {
        this.check = new InputCheck(limits);
        this.registry = new SchemaRegistryClient(endpoints.registryUrl(), registryProperties);
        this.topics = new Topics(endpoints.topicPrefix(), 1, (short) 1, new AvroSerdes(registry, true));
        Map<String, Object> conf = new HashMap<>(kafkaProperties);
        conf.put("bootstrap.servers", endpoints.bootstrapServers());
        conf.put("acks", "all");
        conf.put("enable.idempotence", "true");
        conf.put("linger.ms", "5");
        this.producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
        this.events = topics.generations.valueSerde().serializer();
        this.items = topics.benchmark.valueSerde().serializer();
        this.labelKeys = topics.humanLabels.keySerde().serializer();
        this.labels = topics.humanLabels.valueSerde().serializer();
    }

    /** Lines of a file that hold a record (blank lines are skipped). */
    public static long countRecords(Path file) throws IOException {
        try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
            return lines.filter(l -> !l.isBlank()).count();
        }
    }

    /**
     * @param onRecord called once per record line, when it was sent or refused (progress)
     */
    public Result publish(Kind kind, Path file, Runnable onRecord) throws IOException {
        List<String> errors = Collections.synchronizedList(new ArrayList<>());
        AtomicLong sent = new AtomicLong();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = reader.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                ProducerRecord<byte[], byte[]> record;
                try {
                    record = toRecord(kind, line);
                } catch (RuntimeException e) {
                    errors.add(cut("line " + lineNo + ": " + e.getMessage()));
                    onRecord.run();
                    continue;
                }
                int n = lineNo;
                producer.send(record, (meta, ex) -> {
                    if (ex != null) {
                        errors.add(cut("line " + n + ": not published: " + ex.getMessage()));
                    } else {
                        sent.incrementAndGet();
                    }
                    onRecord.run();
                });
            }
        }
        producer.flush();
        List<String> sorted = new ArrayList<>(errors);
        sorted.sort(java.util.Comparator.comparingInt(e -> Integer.parseInt(e.substring(5, e.indexOf(':')))));
        return new Result(sent.get(), sorted, topic(kind));
    }

    private static String cut(String s) {
        return s.length() <= MAX_ERROR_CHARS ? s : s.substring(0, MAX_ERROR_CHARS) + "…";
    }

    /** The record itself within the limits, else the reason (as the scorer's dead letter would give it). */
    private byte[] within(org.apache.avro.specific.SpecificRecord record, byte[] value, String what, int limit, String name) {
        check.size(what, value.length, limit, name).or(() -> check.check(record)).ifPresent(v -> {
            throw new IllegalArgumentException(v.reason());
        });
        return value;
    }

    public String topic(Kind kind) {
        return switch (kind) {
            case generations -> topics.generations.name();
            case benchmark -> topics.benchmark.name();
            case labels -> topics.humanLabels.name();
        };
    }

    private ProducerRecord<byte[], byte[]> toRecord(Kind kind, String line) {
        String topic = topic(kind);
        switch (kind) {
            case generations -> {
                GenerationEvent e = JsonAvro.read(line, GenerationEvent.class);
                byte[] value = within(e, events.serialize(topic, e), "event", check.limits().eventBytes(), "event-bytes");
                return GenerationRecords.of(topic, producer.partitionsFor(topic).size(), e, value);
            }
            case benchmark -> {
                BenchmarkItem item = JsonAvro.read(line, BenchmarkItem.class);
                byte[] value = within(item, items.serialize(topic, item), "item", check.limits().itemBytes(), "item-bytes");
                byte[] key = SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8);
                return new ProducerRecord<>(topic, key, value);
            }
            case labels -> {
                // one flat object: the sample's key fields beside the label's
                JsonNode node = JsonAvro.readTree(line);
                if (!(node instanceof ObjectNode object)) {
                    throw new IllegalArgumentException("a label line must be a JSON object");
                }
                ObjectNode keyPart = JsonAvro.MAPPER.createObjectNode();
                ObjectNode labelPart = object.deepCopy();
                for (String f : List.of("runId", "checkpointId", "task", "sampleId", "seed")) {
                    if (object.has(f)) {
                        keyPart.set(f, object.get(f));
                        labelPart.remove(f);
                    }
                }
                if (!labelPart.has("labeledAt")) {
                    labelPart.put("labeledAt", System.currentTimeMillis());
                }
                SampleKey key = JsonAvro.read(keyPart, SampleKey.class);
                HumanLabel label = JsonAvro.read(labelPart, HumanLabel.class);
                check.check(key).or(() -> check.checkLabel(label, label.getMetrics())).ifPresent(v -> {
                    throw new IllegalArgumentException(v.reason());
                });
                byte[] value = within(label, labels.serialize(topic, label), "label", check.limits().labelBytes(), "label-bytes");
                int partition = SampleKeys.partition(key, producer.partitionsFor(topic).size());
                return new ProducerRecord<>(topic, partition, labelKeys.serialize(topic, key), value);
            }
            default -> throw new IllegalStateException();
        }
    }

    @Override
    public void close() {
        producer.close();
        registry.close();
    }
}
