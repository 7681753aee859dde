package io.mmgr.stream.topology;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.DeadLetters;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistry;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Safety nets for records no processor rejected on purpose: an unreadable record on an internal or
 * part topic, an unexpected exception in a processor, or a record that cannot be written (over its
 * topic's size, or refused by the broker) goes to the dead-letter topic (inside the same transaction)
 * and the stream carries on. Configured through {@link #TOPIC}, {@link #REGISTRY_URL} (or {@link #REGISTRY}) and
 * {@link RecordCaps#CONFIG}. Every dead letter they write is capped ({@link DeadLetters}).
 */
public final class DeadLetterHandlers {

    public static final String TOPIC = "mmgr.dead-letter.topic";
    public static final String REGISTRY_URL = SchemaRegistryClient.PROPERTY_PREFIX + "url";
    /**
     * A {@link SchemaRegistry} instance to write dead letters with instead of a client of {@link #REGISTRY_URL}:
     * the one the topology's own serdes use, when that is not behind a URL (topology tests' in-memory registry).
     */
    public static final String REGISTRY = "mmgr.dead-letter.registry";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandlers.class);

    private DeadLetterHandlers() {
    }

    private static final class Writer {
        private final String topic;
        private final Serializer<DeadLetter> serializer;

        Writer(Map<String, ?> configs) {
            this.topic = String.valueOf(configs.get(TOPIC));
            SchemaRegistry client = configs.get(REGISTRY) instanceof SchemaRegistry given ? given
                    : new SchemaRegistryClient(String.valueOf(configs.get(REGISTRY_URL)), SchemaRegistryClient.configFrom(configs));
            this.serializer = new AvroSerdes(client, true).forValues(DeadLetter.class).serializer();
        }

        /** The source record's bytes kept (up to the caps). */
        List<ProducerRecord<byte[], byte[]>> letter(ErrorHandlerContext ctx, String stage, Exception e) {
            return send(ctx, DeadLetters.builder(stage, DeadLetters.describe(e))
                    .source(ctx.topic(), ctx.partition(), ctx.offset())
                    .error(e)
                    .original(ctx.sourceRawKey(), ctx.sourceRawValue())
                    .build());
        }

        /** Only the size and digest of the source record: the write failed, so keep the letter small. */
        List<ProducerRecord<byte[], byte[]>> minimal(ErrorHandlerContext ctx, String stage, String reason, Exception e,
                                                     String sampleRef) {
            return send(ctx, DeadLetters.builder(stage, reason)
                    .source(ctx.topic(), ctx.partition(), ctx.offset())
                    .error(e)
                    .sampleRef(sampleRef)
                    .fingerprint(ctx.sourceRawKey(), ctx.sourceRawValue())
                    .build());
        }

        private List<ProducerRecord<byte[], byte[]>> send(ErrorHandlerContext ctx, DeadLetter letter) {
            return List.of(new ProducerRecord<>(topic, DeadLetters.recordKey(ctx.sourceRawKey()), serializer.serialize(topic, letter)));
        }
    }

    /**
     * The schema registry is out, not the record bad: fail the task (the thread is replaced and the
     * record read again from the last commit) after a pause, so an outage is waited out, not spun on.
     */
    private static void pauseBeforeRetry(ErrorHandlerContext ctx, Exception e) {
        LOG.warn("schema registry unavailable at {}-{}@{}: {}; retrying", ctx.topic(), ctx.partition(), ctx.offset(),
                DeadLetters.describe(e));
        try {
            Thread.sleep(RETRY_PAUSE_MS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    static final long RETRY_PAUSE_MS = 1000;

    /** Unreadable records on any source topic. */
    public static final class Deserialization implements DeserializationExceptionHandler {
        private Writer writer;

        @Override
        public void configure(Map<String, ?> configs) {
            writer = new Writer(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext ctx, ConsumerRecord<byte[], byte[]> record, Exception e) {
            if (DeadLetters.isRegistryOutage(e)) {
                pauseBeforeRetry(ctx, e);
                return Response.fail();
            }
            LOG.warn("unreadable record at {}-{}@{}: {}", ctx.topic(), ctx.partition(), ctx.offset(), DeadLetters.describe(e));
            return Response.resume(writer.letter(ctx, "deserialize:" + ctx.topic(), e));
        }
    }

    /** Unexpected exceptions inside processors (a state store refusing an oversized value among them). */
    public static final class Processing implements ProcessingExceptionHandler {
        private Writer writer;

        @Override
        public void configure(Map<String, ?> configs) {
            writer = new Writer(configs);
        }

        @Override
        public Response handleError(ErrorHandlerContext ctx, Record<?, ?> record, Exception e) {
            if (DeadLetters.isRegistryOutage(e)) {
                pauseBeforeRetry(ctx, e);
                return Response.fail();
            }
            LOG.error("processor {} failed on a record from {}-{}@{}: {}", ctx.processorNodeId(), ctx.topic(), ctx.partition(),
                    ctx.offset(), DeadLetters.describe(e), e instanceof AvroSerdes.OversizedRecordException ? null : e);
            return Response.resume(writer.letter(ctx, "process:" + ctx.processorNodeId(), e));
        }
    }

    /**
     * Records that cannot be written. Oversized ones are stopped by the serializers' size cap
     * ({@link RecordCaps}) and arrive in {@link #handleSerializationError}, before the producer saw them,
     * so the transaction is intact. A record the producer or the broker refuses ({@link #handleError}) has
     * already aborted the exactly-once transaction: the letter written here goes with it, but the refused
     * size is remembered, so the retry stops the same record at serialization and dead-letters it then.
     * Retriable send errors are retried.
     */
    public static final class Production implements ProductionExceptionHandler {
        private Writer writer;
        private RecordCaps caps;

        @Override
        public void configure(Map<String, ?> configs) {
            writer = new Writer(configs);
            caps = configs.get(RecordCaps.CONFIG) instanceof RecordCaps c ? c : null;
        }

        @Override
        public Response handleError(ErrorHandlerContext ctx, ProducerRecord<byte[], byte[]> record, Exception e) {
            if (e instanceof RetriableException) {
                return Response.retry();
            }
            int size = (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
            if (e instanceof RecordTooLargeException && caps != null) {
                caps.refused(record.topic(), size);
            }
            String reason = "cannot write a " + size + "-byte record to " + record.topic() + ": " + DeadLetters.describe(e);
            LOG.error("{} (from {}-{}@{})", reason, ctx.topic(), ctx.partition(), ctx.offset());
            return Response.resume(writer.minimal(ctx, "produce:" + record.topic(), reason, e, null));
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Response handleSerializationError(ErrorHandlerContext ctx, ProducerRecord record, Exception e,
                                                 SerializationExceptionOrigin origin) {
            if (DeadLetters.isRegistryOutage(e)) {
                pauseBeforeRetry(ctx, e);
                return Response.fail();
            }
            String ref = record.key() instanceof SampleKey k
                    ? DeadLetters.shortRef(k.getRunId(), k.getCheckpointId(), k.getTask(), k.getSampleId(), k.getSeed()) : null;
            String reason = "cannot write to " + record.topic() + ": " + DeadLetters.describe(e);
            LOG.warn("{} (from {}-{}@{})", reason, ctx.topic(), ctx.partition(), ctx.offset());
            return Response.resume(writer.minimal(ctx, "produce:" + record.topic(), reason, e, ref));
        }
    }
}
