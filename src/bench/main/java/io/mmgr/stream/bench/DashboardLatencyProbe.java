package io.mmgr.stream.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Event produced to dashboard update, measured as a dashboard sees it: a client of the live feed
 * (server-sent events) receives leaderboard rows of a load run; when a checkpoint's row shows k
 * samples scored, the latency is the time of receipt minus the time the k-th event of that
 * checkpoint was produced, i.e. how far behind the producer the dashboard is. One clock (same
 * process). Events of checkpoint c are numbered c * items .. (c + 1) * items - 1, as
 * {@link MagmaWorkload} sends them.
 */
public final class DashboardLatencyProbe implements LoadRunner.SendListener, AutoCloseable {

    private final int items;
    private final AtomicLongArray sentAt;
    private final List<long[]> lags = new ArrayList<>(); // {receivedAt, lagMillis}
    private final Thread reader;
    private volatile boolean running = true;
    private volatile Exception failure;
    private volatile boolean connected;

    /** @param token the scorer's access token (null: it needs none) */
    public DashboardLatencyProbe(String dashboardUrl, String token, String runId, int items, long samples) {
        this.items = items;
        this.sentAt = new AtomicLongArray((int) samples);
        this.reader = new Thread(() -> read(request(dashboardUrl + "api/events?run=" + runId, token)), "dashboard-latency-probe");
        reader.setDaemon(true);
        reader.start();
        long deadline = System.currentTimeMillis() + 10_000;
        while (!connected && failure == null && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        if (!connected) {
            throw new IllegalStateException("cannot connect to the live feed at " + dashboardUrl, failure);
        }
    }

    @Override
    public void sent(long n, long epochMillis) {
        if (n < sentAt.length()) {
            sentAt.set((int) n, epochMillis);
        }
    }

    /** A GET of the scorer's web layer, with its token when it has one. */
    public static HttpRequest request(String url, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    private void read(HttpRequest request) {
        HttpClient http = HttpClient.newHttpClient();
        try {
            HttpResponse<java.io.InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("the live feed answered HTTP " + r.statusCode()
                        + (r.statusCode() == 401 ? ": pass the scorer's token with --web-token or MMGR_WEB_TOKEN" : ""));
            }
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                connected = true;
                String event = null;
                String line;
                while (running && (line = in.readLine()) != null) {
                    if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ") && "row".equals(event)) {
                        long now = System.currentTimeMillis();
                        record(io.mmgr.stream.json.JsonAvro.MAPPER.readTree(line.substring(6)), now);
                    }
                }
            }
        } catch (Exception e) {
            failure = e;
        }
    }

    private void record(JsonNode row, long receivedAt) {
        if (!MagmaWorkload.TASK.equals(row.path("task").asText())) {
            return;
        }
        String ckpt = row.path("checkpointId").asText();
        long c = Long.parseLong(ckpt.substring(ckpt.indexOf('-') + 1));
        long k = row.path("samplesScored").asLong();
        long n = c * items + k - 1;
        if (k < 1 || n >= sentAt.length() || sentAt.get((int) n) == 0) {
            return;
        }
        synchronized (lags) {
            lags.add(new long[] {receivedAt, receivedAt - sentAt.get((int) n)});
        }
    }

    /** Percentiles of the updates received after {@code fromMillis} (the warm-up left out). */
    public String summary(long fromMillis) {
        long[] values;
        synchronized (lags) {
            values = lags.stream().filter(l -> l[0] >= fromMillis).mapToLong(l -> l[1]).sorted().toArray();
        }
        if (values.length == 0) {
            return "no dashboard updates received" + (failure == null ? "" : " (" + failure.getMessage() + ")");
        }
        return String.format("event produced -> dashboard update (server-sent event received), %d updates: "
                        + "p50 %d ms, p95 %d ms, p99 %d ms, max %d ms", values.length, pct(values, 50), pct(values, 95),
                pct(values, 99), values[values.length - 1]);
    }

    /**
     * The worst lag in each {@code bucketMillis} of the run since {@code startMillis}, as "0-10 s: 812 ms" and so
     * on: a p99 alone cannot tell a run that stalled once (one tall bucket) from one that trailed the producer
     * throughout (a rising or flat high line).
     */
    public String timeline(long startMillis, long bucketMillis) {
        List<long[]> copy;
        synchronized (lags) {
            copy = new ArrayList<>(lags);
        }
        return timeline(copy, startMillis, bucketMillis);
    }

    /** {@code lags}: {receivedAt, lagMillis} pairs. */
    static String timeline(List<long[]> lags, long startMillis, long bucketMillis) {
        java.util.TreeMap<Long, long[]> buckets = new java.util.TreeMap<>(); // bucket -> {updates, max lag}
        for (long[] l : lags) {
            long[] v = buckets.computeIfAbsent(Math.max(0, l[0] - startMillis) / bucketMillis, x -> new long[2]);
            v[0]++;
            v[1] = Math.max(v[1], l[1]);
        }
        StringBuilder sb = new StringBuilder("worst dashboard lag per " + bucketMillis / 1000 + " s of the run (updates):");
        buckets.forEach((b, v) -> sb.append(String.format(" %d-%d s %d ms (%d);", b * bucketMillis / 1000,
                (b + 1) * bucketMillis / 1000, v[1], v[0])));
        return buckets.isEmpty() ? sb.append(" no updates").toString() : sb.substring(0, sb.length() - 1);
    }

    private static long pct(long[] sorted, double p) {
        int idx = (int) Math.min(sorted.length - 1, Math.max(0, Math.ceil(p / 100.0 * sorted.length) - 1));
        return sorted[idx];
    }

    public long[] lagsSince(long fromMillis) {
        synchronized (lags) {
            return lags.stream().filter(l -> l[0] >= fromMillis).mapToLong(l -> l[1]).toArray();
        }
    }

    @Override
    public void close() {
        running = false;
        reader.interrupt();
    }

    @Override
    public String toString() {
        return Arrays.toString(lagsSince(0));
    }
}
