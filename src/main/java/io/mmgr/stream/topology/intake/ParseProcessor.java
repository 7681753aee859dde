package io.mmgr.stream.topology.intake;

import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.topology.DeadLetters;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/** Deserializes and validates raw generation events; anything unusable becomes a dead letter. */
final class ParseProcessor implements FixedKeyProcessor<byte[], byte[], IntakeResult> {

    static final String STAGE = "intake";

    private final Deserializer<GenerationEvent> deserializer;
    private final EventValidator validator;
    private FixedKeyProcessorContext<byte[], IntakeResult> context;

    ParseProcessor(Deserializer<GenerationEvent> deserializer, EventValidator validator) {
        this.deserializer = deserializer;
        this.validator = validator;
    }

    @Override
    public void init(FixedKeyProcessorContext<byte[], IntakeResult> context) {
        this.context = context;
    }

    @Override
    public void process(FixedKeyRecord<byte[], byte[]> record) {
        RawRecord raw = new RawRecord(record.key(), record.value(), context.recordMetadata());
        context.forward(record.withValue(parse(raw)));
    }

    private IntakeResult parse(RawRecord raw) {
        if (raw.value() == null || raw.value().length == 0) {
            return reject(raw, "empty record value (a generation event was expected)", null, null);
        }
        GenerationEvent event;
        try {
            String topic = raw.source().map(m -> m.topic()).orElse("generations");
            event = deserializeWaitingOutRegistryOutages(topic, raw.value());
        } catch (RuntimeException e) {
            if (DeadLetters.isRegistryOutage(e)) {
                // not this record's fault: fail the task, which reads it again once the registry answers
                throw e;
            }
            return reject(raw, "not a readable GenerationEvent: " + DeadLetters.describe(e), e, null);
        }
        if (event == null) {
            return reject(raw, "empty record value (a generation event was expected)", null, null);
        }
        Optional<String> problem = validator.problem(event);
        if (problem.isPresent()) {
            return reject(raw, problem.get(), null, refOf(event));
        }
        return new IntakeResult.Accepted(raw, event, generationId(raw.value()), null);
    }

    /**
     * An event with a schema id not seen yet needs the registry. While the registry is out, wait here
     * (retrying each second, well within the consumer's poll interval) rather than fail the task at
     * once: a replaced stream thread costs a rebalance that waits out the old member's session.
     */
    private GenerationEvent deserializeWaitingOutRegistryOutages(String topic, byte[] value) {
        long deadline = System.nanoTime() + REGISTRY_PATIENCE.toNanos();
        while (true) {
            try {
                return deserializer.deserialize(topic, value);
            } catch (RuntimeException e) {
                if (!DeadLetters.isRegistryOutage(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LOG.warn("schema registry unavailable, waiting: {}", DeadLetters.describe(e));
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** How long intake waits for the registry before failing the task (the poll interval allows 5 minutes). */
    static final java.time.Duration REGISTRY_PATIENCE = java.time.Duration.ofSeconds(60);

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ParseProcessor.class);

    static IntakeResult.Rejected reject(RawRecord raw, String reason, Throwable error, String ref) {
        return new IntakeResult.Rejected(DeadLetters.of(raw.source(), STAGE, reason, error, raw.key(), raw.value(), ref));
    }

    static String refOf(GenerationEvent e) {
        return e.getRunId() + "/" + e.getCheckpointId() + "/" + e.getTask() + "/" + e.getSampleId() + "#" + e.getSeed();
    }

    /**
     * Digest of the Avro payload (after the 5-byte wire header, so the writer's schema id does not
     * matter): parts computed for another generation of the same sample are recognised by it.
     */
    static String generationId(byte[] value) {
        try {
            byte[] payload = value.length > 5 ? Arrays.copyOfRange(value, 5, value.length) : value;
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(payload);
            return HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
