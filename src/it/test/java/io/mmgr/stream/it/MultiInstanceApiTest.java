package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.bench.MagmaWorkload;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.contract.SamplePartitioner;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two scorer instances sharing one application id on a real broker: each holds part of the
 * partitions, and the REST API of either answers for every key (forwarding to the owner) and for
 * every list (gathering from both). Their Prometheus endpoints together count every score once.
 */
@Tag("integration")
class MultiInstanceApiTest {

    static final String RUN = "run-two";
    static final int ITEMS = 12;
    static final Duration WAIT = Duration.ofSeconds(90);
    static final ObjectMapper MAPPER = new ObjectMapper();
    final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void eitherInstanceAnswersForKeysHeldByTheOther() throws Exception {
        ScorerSettings base = ScorerSettings.defaults().withPrefix("two.");
        ScorerSettings settings = new ScorerSettings(base.topicPrefix(), "mmgr-two", 6, (short) 1, false,
                base.artifactRoots(), base.maxArtifactBytes(), 1, Map.of());
        // both instances require the same token, so every list gathered across them shows the token passed on
        ScorerApp.Options web = ScorerApp.Options.defaults().withWeb("127.0.0.1", 0, "127.0.0.1")
                .withWebAccess(io.mmgr.stream.web.WebAccess.token(TOKEN));
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
             RegistryServer registry = RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null);
             ScorerApp a = ScorerApp.start(settings, web, kafka.bootstrapServers(), registry.url(), dir.resolve("a"), WAIT);
             ScorerApp b = ScorerApp.start(settings, web, kafka.bootstrapServers(), registry.url(), dir.resolve("b"), WAIT);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.bootstrapServers(),
                     "acks", "all"), new ByteArraySerializer(), new ByteArraySerializer())) {
            String urlA = a.web().orElseThrow().url();
            String urlB = b.web().orElseThrow().url();
            // both instances run with tasks of their own, and both metrics consumers have their share
            ScorerHarness.await(() -> active(a) > 0 && active(b) > 0 && a.streams().state() == KafkaStreams.State.RUNNING
                    && b.streams().state() == KafkaStreams.State.RUNNING, ok -> ok, WAIT, "both instances with active tasks");
            // six stage topics (the three evaluation queues, cv-results, sample-scores, leaderboard), the dead-letter and alerts topics
            int metricPartitions = 6 * 6 + 6 + 6;
            ScorerHarness.await(() -> metric(urlA, "mmgr_pipeline_metrics_partitions", "") + metric(urlB, "mmgr_pipeline_metrics_partitions", ""),
                    n -> n == metricPartitions, WAIT, "the metrics consumers' partitions shared out");

            // a live client of instance B, connected before anything is scored
            List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
            // async: had the response arrived before thenAccept, the endless stream would be read on this thread
            var sse = http.sendAsync(request(urlB + "api/events?run=" + RUN),
                    HttpResponse.BodyHandlers.ofLines()).thenAcceptAsync(r -> r.body().forEach(events::add));
            ScorerHarness.await(() -> b.web().orElseThrow().feed().clientCount(), n -> n == 1, WAIT, "the live client connected");

            Topics topics = new Topics("two.", 6, (short) 1, new AvroSerdes(new SchemaRegistryClient(registry.url()), true));
            MagmaWorkload workload = new MagmaWorkload(ITEMS, 3, 5, "ep-");
            for (BenchmarkItem item : workload.items()) {
                producer.send(new ProducerRecord<>(topics.benchmark.name(),
                        SampleKeys.itemKey(item.getTask(), item.getSampleId()).getBytes(StandardCharsets.UTF_8),
                        topics.benchmark.valueSerde().serializer().serialize(topics.benchmark.name(), item))).get();
            }
            List<SampleKey> keys = new ArrayList<>();
            for (int n = 0; n < 2 * ITEMS; n++) {
                GenerationEvent e = workload.event(RUN, n, 0.7);
                keys.add(SampleKeys.of(e));
                producer.send(new ProducerRecord<>(topics.generations.name(), SampleKeys.ref(SampleKeys.of(e)).getBytes(StandardCharsets.UTF_8),
                        topics.generations.valueSerde().serializer().serialize(topics.generations.name(), e))).get();
            }

            // lists: either instance gathers the rows of both
            JsonNode rowsA = ScorerHarness.await(() -> get(urlA + "api/leaderboard?run=" + RUN + "&task=mind2web"),
                    r -> r.size() == 2 && r.get(0).get("samplesScored").asInt() == ITEMS && r.get(1).get("samplesScored").asInt() == ITEMS,
                    WAIT, "both checkpoints' rows, complete");
            JsonNode rowsB = get(urlB + "api/leaderboard?run=" + RUN + "&task=mind2web");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(urlB + "api/leaderboard?run=" + RUN)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).as("without the token").isEqualTo(401);
            assertThat(summary(rowsB)).isEqualTo(summary(rowsA));

            // keys: each sample from both instances, whoever holds it
            HostInfo hostA = a.web().orElseThrow().hostInfo();
            HostInfo hostB = b.web().orElseThrow().hostInfo();
            Set<HostInfo> owners = new HashSet<>();
            for (SampleKey k : keys) {
                HostInfo owner = a.streams().queryMetadataForKey(a.stores().sampleScores.name(), k, new SamplePartitioner<>()).activeHost();
                owners.add(owner);
                String q = "api/sample?run=" + enc(k.getRunId()) + "&checkpoint=" + enc(k.getCheckpointId()) + "&task="
                        + enc(k.getTask()) + "&sample=" + enc(k.getSampleId()) + "&seed=" + k.getSeed();
                JsonNode fromA = get(urlA + q);
                JsonNode fromB = get(urlB + q);
                String expectedOwner = owner.host() + ":" + owner.port();
                assertThat(fromA.get("answeredBy").asText()).isEqualTo(expectedOwner);
                assertThat(fromB.get("answeredBy").asText()).isEqualTo(expectedOwner);
                assertThat(fromA.get("score")).isEqualTo(fromB.get("score"));
                assertThat(fromA.at("/score/sampleId").asText()).isEqualTo(k.getSampleId());
                // the workload's items carry Magma's payload, which the API shows decoded
                assertThat(fromA.at("/item/groundTruth/payload/uiSteps").size()).isEqualTo(3);
            }
            assertThat(owners).as("each instance holds some of the keys").containsExactlyInAnyOrder(hostA, hostB);

            // a checkpoint's progress, the runs and a checkpoint's failing samples, from the instance that holds less of them
            JsonNode progress = get(urlB + "api/progress?run=" + RUN + "&checkpoint=ckpt-0");
            assertThat(progress.at("/total/samplesScored").asInt()).isEqualTo(ITEMS);
            assertThat(progress.at("/total/samplesExpected").asInt()).isEqualTo(ITEMS);
            assertThat(progress.at("/tasks/0/task").asText()).isEqualTo("mind2web");
            assertThat(progress.at("/tasks/0/fraction").asDouble()).isEqualTo(1.0);
            JsonNode runs = get(urlA + "api/runs");
            assertThat(runs.get(0).get("runId").asText()).isEqualTo(RUN);
            assertThat(runs.get(0).get("checkpoints")).extracting(c -> c.get("checkpointId").asText()).containsExactly("ckpt-0", "ckpt-1");
            JsonNode failing = get(urlA + "api/samples?run=" + RUN + "&checkpoint=ckpt-0&task=mind2web&outcome=fail");
            JsonNode all = get(urlB + "api/samples?run=" + RUN + "&checkpoint=ckpt-0&task=mind2web");
            assertThat(all.size()).isEqualTo(ITEMS);
            long notPassed = 0;
            for (JsonNode s : all) {
                notPassed += s.get("primary").asDouble() < 1.0 ? 1 : 0;
            }
            assertThat(failing.size()).isEqualTo(notPassed);
            assertThat(get(urlB + "api/alerts?run=" + RUN).size()).as("the second checkpoint is no worse on purpose").isZero();

            // comparisons gathered from either instance: the second checkpoint against the first, paired on all items
            JsonNode cmp = ScorerHarness.await(() -> get(urlB + "api/comparisons?run=" + RUN + "&task=mind2web"),
                    c -> c.size() == 2, WAIT, "both comparisons");
            JsonNode second = cmp.get(0).get("checkpointId").asText().equals("ckpt-1") ? cmp.get(0) : cmp.get(1);
            assertThat(second.at("/vsPrevious/baselineCheckpointId").asText()).isEqualTo("ckpt-0");
            assertThat(second.at("/vsPrevious/samples").asInt()).isEqualTo(ITEMS);
            assertThat(second.at("/vsPrevious/method").asText()).isEqualTo("paired");

            // the static report reads the topics both instances write: the whole leaderboard, whoever holds a row
            JsonNode allRows = get(urlB + "api/leaderboard?run=" + RUN);
            assertThat(allRows).as("mind2web and all tasks, two checkpoints").hasSize(4);
            for (String checkpoint : List.of("ckpt-0", "ckpt-1")) {
                String html = report(kafka.bootstrapServers(), registry.url(), checkpoint);
                String board = html.substring(html.indexOf("<table id=\"board\">"));
                for (JsonNode r : allRows) {
                    String row = String.format(java.util.Locale.ROOT, "%.1f%%", 100 * r.get("primaryRate").asDouble());
                    if (r.get("checkpointId").asText().equals(checkpoint)) {
                        assertThat(board).as("%s's board row %s", checkpoint, r).containsPattern("data-task=\"" + Pattern.quote(r.get("task").asText())
                                + "\"><td>.*?</td><td>" + Pattern.quote(row) + "</td><td>[^<]*</td><td>" + r.get("primaryCount").asInt()
                                + " / " + r.get("samplesExpected").asInt() + "</td>");
                    }
                    if (r.get("task").asText().equals("*")) {
                        assertThat(html).as("%s in the checkpoint table", r).containsPattern("<td>" + r.get("checkpointId").asText()
                                + "( <span class=\"best\">[^<]*</span>)?</td><td>\\d+</td><td>" + Pattern.quote(row)
                                + "</td><td>[^<]*</td><td>" + ITEMS + " / " + ITEMS + "</td></tr>");
                    }
                }
            }

            // live updates: rows and comparisons of the run arrived as server-sent events
            ScorerHarness.await(() -> List.copyOf(events), e -> e.contains("event: row") && e.contains("event: comparison"),
                    WAIT, "live row and comparison events");
            List<String> snapshot = List.copyOf(events);
            String rowData = snapshot.get(snapshot.indexOf("event: row") + 1);
            assertThat(rowData).startsWith("data: {").contains("\"runId\":\"" + RUN + "\"", "\"flags\"");
            sse.cancel(true);

            // metrics: the two endpoints together count every score once; Kafka Streams' own metrics are exposed
            ScorerHarness.await(() -> metric(urlA, "mmgr_samples_scored_total", "task=\"mind2web\"")
                            + metric(urlB, "mmgr_samples_scored_total", "task=\"mind2web\""),
                    n -> n == 2 * ITEMS, WAIT, "scores counted across the instances");
            String scrape = text(urlA + "metrics");
            assertThat(scrape).contains("kafka_stream_thread_", "mmgr_scoring_latency_seconds", "mmgr_stage_lag_seconds");
            assertThat(text(urlB + "api/nope")).contains("no such endpoint");
        }
    }

    /** {@code mmgr report} against the broker and registry, as a user runs it beside the scorers. */
    String report(String bootstrap, String registryUrl, String checkpoint) throws Exception {
        Path out = dir.resolve("report-" + checkpoint + ".html");
        java.io.StringWriter text = new java.io.StringWriter();
        int rc = io.mmgr.stream.cli.Main.commandLine().setOut(new java.io.PrintWriter(text)).setErr(new java.io.PrintWriter(text))
                .execute("report", "--run", RUN, "--checkpoint", checkpoint, "--bootstrap-servers", bootstrap,
                        "--schema-registry-url", registryUrl, "--topic-prefix", "two.", "--out", out.toString());
        assertThat(rc).as("mmgr report: %s", text).isZero();
        return java.nio.file.Files.readString(out, StandardCharsets.UTF_8);
    }

    static int active(ScorerApp app) {
        return app.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }

    static List<String> summary(JsonNode rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.get("checkpointId").asText() + "/" + r.get("task").asText() + "/"
                + r.get("samplesScored").asInt() + "/" + r.get("primaryRate").asDouble()));
        out.sort(null);
        return out;
    }

    static final String TOKEN = "multi-instance-" + Long.toHexString(System.nanoTime());

    static HttpRequest request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + TOKEN).build();
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    JsonNode get(String url) {
        try {
            HttpResponse<String> r = http.send(request(url), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + r.statusCode() + ": " + r.body());
            }
            return MAPPER.readTree(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    String text(String url) {
        try {
            return http.send(request(url), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sum of a Prometheus series over the lines whose labels contain {@code labelPart}. */
    double metric(String baseUrl, String name, String labelPart) {
        double sum = 0;
        Matcher m = Pattern.compile("^" + name + "(\\{[^}]*\\})? ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(text(baseUrl + "metrics"));
        while (m.find()) {
            if (m.group(1) == null ? labelPart.isEmpty() : m.group(1).contains(labelPart)) {
                sum += Double.parseDouble(m.group(2));
            }
        }
        return sum;
    }
}
