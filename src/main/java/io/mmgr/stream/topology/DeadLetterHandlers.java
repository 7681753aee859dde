package io.mmgr.stream.topology;

import io.mmgr.stream.avro.DeadLetter;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.registry.SchemaRegistryClient;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Safety nets for records no processor rejected on purpose: an unreadable record on an internal or
 * part topic, or an unexpected exception in a processor, goes to the dead-letter topic (inside the
 * same transaction) and the stream carries on. Configured through {@link #TOPIC} and {@link #REGISTRY_URL}.
 */
public final class DeadLetterHandlers {

    public static final String TOPIC = "mmgr.dead-letter.topic";
    public static final String REGISTRY_URL = "mmgr.schema-registry.url";

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterHandlers.class);

    private DeadLetterHandlers() {
    }

    private static final class Writer {
        private final String topic;
        private final Serializer<DeadLetter> serializer;

        Writer(Map<String, ?> configs) {
            this.topic = String.valueOf(configs.get(TOPIC));
            Map<String, Object> clientConfig = new java.util.HashMap<>();
            configs.forEach((k, v) -> {
                if (k.startsWith("mmgr.schema-registry.")) {
                    clientConfig.put(k.substring("mmgr.schema-registry.".length()), v);
                }
            });
            SchemaRegistryClient client = new SchemaRegistryClient(String.valueOf(configs.get(REGISTRY_URL)), clientConfig);
            this.serializer = new AvroSerdes(client, true).forValues(DeadLetter.class).serializer();
        }

        List<ProducerRecord<byte[], byte[]>> letter(ErrorHandlerContext ctx, String stage, Exception e) {
            DeadLetter letter = DeadLetter.newBuilder()
                    .setSourceTopic(ctx.topic())
                    .setSourcePartition(ctx.partition())
                    .setSourceOffset(ctx.offset())
                    .setStage(stage)
                    .setReason(DeadLetters.describe(e))
                    .setErrorClass(e.getClass().getName())
                    .setSampleRef(null)
                    .setOriginalKey(ctx.sourceRawKey() == null ? null : ByteBuffer.wrap(ctx.sourceRawKey()))
                    .setOriginalValue(ctx.sourceRawValue() == null ? null : ByteBuffer.wrap(ctx.sourceRawValue()))
                    .setFailedAt(Instant.now())
                    .build();
            return List.of(new ProducerRecord<>(topic, ctx.sourceRawKey(), serializer.serialize(topic, letter)));
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

    /** Unexpected exceptions inside processors. */
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
            LOG.error("processor {} failed on a record from {}-{}@{}", ctx.processorNodeId(), ctx.topic(), ctx.partition(),
                    ctx.offset(), e);
            return Response.resume(writer.letter(ctx, "process:" + ctx.processorNodeId(), e));
        }
    }
}
