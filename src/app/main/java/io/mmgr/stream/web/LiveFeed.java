package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.mmgr.stream.avro.Alert;
import io.mmgr.stream.avro.CheckpointComparison;
import io.mmgr.stream.avro.LeaderboardRow;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.leaderboard.ReliabilityFlags;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live updates over server-sent events. One consumer per instance reads the public leaderboard,
 * comparisons and alerts topics (every partition, committed records only, from their end: the REST
 * API gives the state so far), keeps the latest record per key for a few milliseconds so a burst
 * becomes one update, and writes events to every connected client:
 * {@code event: row | comparison | alert}, {@code data: <JSON as in the REST API>}.
 */
public final class LiveFeed implements HttpHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LiveFeed.class);
    /** How long updates are gathered before they go out: the price of coalescing, in latency. */
    static final long FLUSH_MILLIS = 50;
    static final long HEARTBEAT_MILLIS = 15_000;
    private static final String CLOSE = "\u0000close";

    private final Topics topics;
    private final ReliabilityFlags flags;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private final Set<Client> clients = ConcurrentHashMap.newKeySet();
    private volatile boolean running = true;

    private record Client(String run, BlockingQueue<String> frames) {
    }

    public LiveFeed(Map<String, Object> clientConfig, Topics topics, ReliabilityFlags flags) {
        this.topics = topics;
        this.flags = flags;
        Map<String, Object> conf = new HashMap<>(clientConfig);
        conf.put("isolation.level", "read_committed");
        conf.put("enable.auto.commit", "false");
        // Kafka's 500 ms fetch wait: a fetch is answered as soon as a committed record arrives, so a shorter wait buys
        // no latency; at 20 ms an idle scorer's feed sent the broker 50 fetches a second (about 2 % of a core, with the
        // broker's side of them)
        conf.remove("group.id");
        this.consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String t : List.of(topics.leaderboard.name(), topics.comparisons.name(), topics.alerts.name())) {
            consumer.partitionsFor(t, Duration.ofSeconds(30)).forEach(p -> parts.add(new TopicPartition(t, p.partition())));
        }
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // resolve now, so nothing published after start is missed
        this.thread = new Thread(this::run, "mmgr-live-feed");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        Map<String, Pending> pending = new LinkedHashMap<>();
        long lastFlush = System.currentTimeMillis();
        try {
            while (running) {
                var records = consumer.poll(Duration.ofMillis(FLUSH_MILLIS));
                if (clients.isEmpty()) {
                    continue; // nobody watching: nothing to decode
                }
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    try {
                        Pending p = decode(r);
                        if (p != null) {
                            pending.put(p.event + "|" + new String(r.key(), StandardCharsets.ISO_8859_1), p);
                        }
                    } catch (RuntimeException e) {
                        LOG.warn("live feed skipped an unreadable record of {}: {}", r.topic(), e.toString());
                    }
                }
                long now = System.currentTimeMillis();
                if (!pending.isEmpty() && now - lastFlush >= FLUSH_MILLIS) {
                    for (Pending p : pending.values()) {
                        broadcast(p);
                    }
                    pending.clear();
                    lastFlush = now;
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    private record Pending(String event, String run, String frame) {
    }

    private Pending decode(ConsumerRecord<byte[], byte[]> r) {
        if (r.value() == null) {
            return null;
        }
        String event;
        String run;
        JsonNode json;
        if (r.topic().equals(topics.leaderboard.name())) {
            LeaderboardRow row = topics.leaderboard.valueSerde().deserializer().deserialize(r.topic(), r.value());
            event = "row";
            run = row.getRunId();
            json = Json.row(row, flags);
        } else if (r.topic().equals(topics.comparisons.name())) {
            CheckpointComparison c = topics.comparisons.valueSerde().deserializer().deserialize(r.topic(), r.value());
            event = "comparison";
            run = c.getRunId();
            json = JsonAvro.toJson(c);
        } else {
            Alert a = topics.alerts.valueSerde().deserializer().deserialize(r.topic(), r.value());
            event = "alert";
            run = a.getRunId();
            json = JsonAvro.toJson(a);
        }
        ((ObjectNode) json).put("publishedAt", r.timestamp());
        return new Pending(event, run, "event: " + event + "\ndata: " + json + "\n\n");
    }

    private void broadcast(Pending p) {
        for (Client c : clients) {
            if (c.run == null || c.run.equals(p.run)) {
                c.frames.offer(p.frame);
            }
        }
    }

    /** One client: holds the connection (on its own server thread) until the client goes away. */
    @Override
    public void handle(HttpExchange ex) throws IOException {
        String run = HttpExchanges.query(ex).get("run");
        Client client = new Client(run == null || run.isEmpty() ? null : run, new LinkedBlockingQueue<>(10_000));
        HttpExchanges.secure(ex);
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(200, 0);
        clients.add(client);
        try (OutputStream out = ex.getResponseBody()) {
            out.write("retry: 2000\n: connected\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            while (running) {
                String frame = client.frames.poll(HEARTBEAT_MILLIS, TimeUnit.MILLISECONDS);
                if (frame == CLOSE) {
                    break;
                }
                StringBuilder batch = new StringBuilder(frame == null ? ": ping\n\n" : frame);
                String more;
                while ((more = client.frames.poll()) != null && more != CLOSE) {
                    batch.append(more);
                }
                out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                if (more == CLOSE) {
                    break;
                }
            }
        } catch (IOException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            clients.remove(client);
            ex.close();
        }
    }

    public int clientCount() {
        return clients.size();
    }

    @Override
    public void close() {
        running = false;
        clients.forEach(c -> c.frames.offer(CLOSE));
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
