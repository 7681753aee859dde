package io.mmgr.stream.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The producer of a steady load kept up through broker faults: a record whose send fails (its partition's leader
 * was gone longer than the delivery timeout) is queued and sent again with the same bytes by {@link #resend()}, so
 * the scorer sees at most duplicates of an identical record, never a lost or a changed one.
 */
public final class ResendingProducer implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final ConcurrentLinkedQueue<ProducerRecord<byte[], byte[]>> retry = new ConcurrentLinkedQueue<>();
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong resent = new AtomicLong();

    public ResendingProducer(Map<String, Object> clientConfig) {
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("acks", "all");
        conf.put("enable.idempotence", "true");
        conf.put("linger.ms", "5");
        conf.put("delivery.timeout.ms", "120000");
        conf.put("request.timeout.ms", "10000");
        conf.put("max.block.ms", "120000");
        this.producer = new KafkaProducer<>(conf, new ByteArraySerializer(), new ByteArraySerializer());
    }

    public void send(ProducerRecord<byte[], byte[]> record) {
        producer.send(record, (meta, ex) -> {
            if (ex == null) {
                acked.incrementAndGet();
            } else {
                retry.add(record);
            }
        });
    }

    /** Sends what failed again. */
    public void resend() {
        ProducerRecord<byte[], byte[]> again;
        while ((again = retry.poll()) != null) {
            resent.incrementAndGet();
            send(again);
        }
    }

    /** Sends again until every record sent so far was acknowledged ({@code sent} of them). */
    public void awaitAcknowledged(long sent, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (acked.get() < sent) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + acked.get() + " of " + sent + " records acknowledged");
            }
            resend();
            producer.flush();
            Thread.sleep(100);
        }
    }

    public KafkaProducer<byte[], byte[]> producer() {
        return producer;
    }

    public long acked() {
        return acked.get();
    }

    public long resent() {
        return resent.get();
    }

    /** Records waiting to be sent again. */
    public int waiting() {
        return retry.size();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
