package io.mmgr.stream.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.mmgr.stream.app.ScorerApp;
import io.mmgr.stream.app.TopicSnapshot;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GenerationInputs;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.avro.LeaderboardKey;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.UiAction;
import io.mmgr.stream.bench.ScriptedVlmServer;
import io.mmgr.stream.cli.Main;
import io.mmgr.stream.embedded.EmbeddedKafka;
import io.mmgr.stream.registry.RegistryException;
import io.mmgr.stream.registry.SchemaRegistryClient;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.topology.ScorerSettings;
import io.mmgr.stream.contract.Topics;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka SASL credentials, registry credentials and the judge's API key never appear in logs, topics,
 * metrics or error messages. The broker has a SASL/PLAIN listener, the registry sits behind a proxy
 * that requires basic auth and the judge is a scripted provider on loopback that checks the key and
 * once echoes it back in an error body, so every credential is really used (the runs would fail
 * without it); then everything the scorer produced is searched for each secret.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecretsTest {

    static final String KAFKA_SECRET = "kafka-pw-7Qz9Xs3cr3tK";
    static final String REGISTRY_SECRET = "registry-pw-4Hn2Ws3cr3tR";
    static final String WRONG_KAFKA = "wrong-kafka-pw-9Lm1Vs3cr3t";
    static final String WRONG_REGISTRY = "wrong-registry-pw-2Pk8Ys3cr3t";
    static final String JUDGE_KEY = "judge-key-8Vb3Nc5s3cr3tJ";
    static final List<String> SECRETS = List.of(KAFKA_SECRET, REGISTRY_SECRET, WRONG_KAFKA, WRONG_REGISTRY, JUDGE_KEY);
    static final String REGISTRY_USER = "scorer-registry";
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    static Infrastructure infra;
    static RegistryAuthProxy proxy;

    @BeforeAll
    static void start() throws Exception {
        infra = new Infrastructure(dir.resolve("infra"),
                new EmbeddedKafka.SaslPlain(EmbeddedKafka.freePort(), Map.of("scorer", KAFKA_SECRET)));
        proxy = new RegistryAuthProxy(infra.registryUrl(), REGISTRY_USER, REGISTRY_SECRET);
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
        if (infra != null) {
            infra.close();
        }
    }

    static String jaas(String password) {
        return "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"scorer\" password=\"" + password + "\";";
    }

    static Map<String, String> sasl(String password) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("security.protocol", "SASL_PLAINTEXT");
        p.put("sasl.mechanism", "PLAIN");
        p.put("sasl.jaas.config", jaas(password));
        return p;
    }

    static void assertNoSecret(String where, String text) {
        for (String secret : SECRETS) {
            assertThat(text).as("%s must not contain a credential", where).doesNotContain(secret);
        }
    }

    static void assertNoSecret(String where, byte[] bytes) {
        if (bytes != null) {
            assertNoSecret(where, new String(bytes, StandardCharsets.ISO_8859_1));
        }
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    static void publishSample(Topics t, String run) throws Exception {
        BenchmarkItem item = BenchmarkItem.newBuilder().setTask("mind2web").setSampleId("s1").setBenchmark("magma")
                .setGroundTruth(GroundTruth.newBuilder().setUiSteps(List.of(UiAction.newBuilder().setElement("e").setOp("CLICK")
                        .build())).build()).build();
        GenerationEvent event = GenerationEvent.newBuilder().setRunId(run).setModel("m").setCheckpointId("c1").setTrainingStep(1)
                .setTask("mind2web").setSampleId("s1").setModality("ui").setProducedAt(Instant.now())
                .setInputs(GenerationInputs.newBuilder().setUiActions(List.of(UiAction.newBuilder().setElement("e")
                        .setOp("CLICK").build())).build()).build();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", infra.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(t.benchmark.name(), "mind2web/s1".getBytes(StandardCharsets.UTF_8),
                    t.benchmark.valueSerde().serializer().serialize(t.benchmark.name(), item))).get();
            p.send(new ProducerRecord<>(t.generations.name(), "k".getBytes(StandardCharsets.UTF_8),
                    t.generations.valueSerde().serializer().serialize(t.generations.name(), event))).get();
            // and a record the scorer rejects: its dead letter must not carry a credential either
            p.send(new ProducerRecord<>(t.generations.name(), "bad".getBytes(StandardCharsets.UTF_8),
                    "not avro".getBytes(StandardCharsets.UTF_8))).get();
        }
        SampleKey key = new SampleKey(run, "c1", "mind2web", "s1", 0);
        ScorerHarness.await(() -> infra.scoreRecords(t), r -> r.containsKey(key), WAIT, "the sample scored over SASL");
        ScorerHarness.await(() -> infra.deadLetters(t), l -> !l.isEmpty(), WAIT, "the dead letter");
        // the leaderboard row too, before the scorer stops: the client-command test reads it back
        ScorerHarness.await(() -> infra.leaderboard(t), b -> b.containsKey(new LeaderboardKey(run, "c1", "mind2web")), WAIT,
                "the sample's leaderboard row");
    }

    @Test
    @Order(1)
    void aScorerConfiguredOnlyThroughTheEnvironmentAuthenticatesAndPrintsNoCredential() throws Exception {
        Path data = dir.resolve("child");
        Path log4j = allInfoLogging();
        Map<String, String> env = new HashMap<>();
        env.put("MMGR_BOOTSTRAP_SERVERS", infra.saslBootstrapServers());
        // registry credentials in the URL's user-info: the banner and endpoints file must drop them
        env.put("MMGR_SCHEMA_REGISTRY_URL", proxy.url(REGISTRY_USER, REGISTRY_SECRET));
        env.put("MMGR_DATA_DIR", data.toString());
        env.put("MMGR_APPLICATION_ID", "secrets-app");
        env.put("MMGR_TOPIC_PREFIX", "sec.");
        env.put("MMGR_PARTITIONS", "3");
        env.put("MMGR_REPLICATION_FACTOR", "1");
        env.put("MMGR_THREADS", "1");
        env.put("MMGR_ARTIFACT_ROOTS", dir.resolve("a") + "," + dir.resolve("b"));
        env.put("MMGR_ARTIFACT_HTTP_ALLOW", "127.0.0.1:8099,artifacts.example");
        env.put("MMGR_MAX_ARTIFACT_BYTES", "1000000");
        env.put("MMGR_ARTIFACT_S3_ENDPOINT", "http://127.0.0.1:9000");
        env.put("MMGR_ARTIFACT_S3_REGION", "eu-west-3");
        env.put("MMGR_ARTIFACT_S3_PATH_STYLE", "true");
        env.put("MMGR_ARTIFACT_S3_TIMEOUT", "PT5S");
        env.put("MMGR_KAFKA_PROPERTIES", saslProperties());
        int before = proxy.authorized.get();
        ChildScorer child = new ChildScorer("env", data, List.of(), env, List.of("-Dlog4j2.configurationFile=" + log4j.toUri()));
        try (child) {
            child.start(Duration.ofMinutes(2));
            Topics t = infra.topics("sec.", 3);
            publishSample(t, "env-run");

            // every variable reached the scorer
            String log = child.log();
            assertThat(log).contains("Artifact roots          : [" + dir.resolve("a") + ", " + dir.resolve("b") + "]")
                    .contains("HTTP artifact hosts     : 127.0.0.1:8099, artifacts.example")
                    .contains("S3 artifacts            : http://127.0.0.1:9000, region eu-west-3, path-style, timeout 5 s "
                            + "(credentials: the AWS chain)")
                    .contains("Schema registry         : " + proxy.url());
            assertThat(Files.readString(data.resolve("scorer.state")).trim()).isEqualTo("RUNNING");
            assertThat(Files.readString(data.resolve("endpoints.properties"))).doesNotContain(REGISTRY_USER + ":");
            try (Admin admin = Admin.create(infra.clientConfig())) {
                assertThat(admin.describeTopics(List.of("sec.generations")).allTopicNames().get()
                        .get("sec.generations").partitions()).hasSize(3);
                ConsumerGroupDescription group = admin.describeConsumerGroups(List.of("secrets-app")).all().get().get("secrets-app");
                assertThat(group.members()).isNotEmpty()
                        .allSatisfy(m -> assertThat(m.clientId()).startsWith("from-env"));
            }
            assertThat(proxy.authorized.get()).as("the scorer authenticated to the registry").isGreaterThan(before);
            assertThat(child.stop()).isIn(0, 143);
        }
        String all = child.allLogs();
        // the logs are the full INFO stream, client configurations included, with passwords hidden
        assertThat(all).contains("sasl.jaas.config = [hidden]").contains("mmgr-stream scorer running");
        assertNoSecret("the scorer's output", all);
        assertNoSecret("endpoints.properties", Files.readString(data.resolve("endpoints.properties")));

        // help texts show environment defaults: never the properties' values
        for (List<String> args : List.of(List.of("run", "--help"), List.of("leaderboard", "--help"), List.of("publish", "--help"))) {
            String help = runMain(env, args);
            assertThat(help).contains("Usage:");
            assertNoSecret("mmgr " + String.join(" ", args), help);
        }
    }

    /** A log4j configuration that logs everything at INFO, client configurations included. */
    static Path allInfoLogging() throws java.io.IOException {
        return Files.writeString(dir.resolve("log4j2-all-info.xml"), """
                <Configuration status="WARN">
                  <Appenders><Console name="out" target="SYSTEM_OUT"><PatternLayout pattern="%-5level [%t] %c - %m%n%ex"/></Console></Appenders>
                  <Loggers><Root level="INFO"><AppenderRef ref="out"/></Root></Loggers>
                </Configuration>
                """);
    }

    /** MMGR_KAFKA_PROPERTIES for the SASL listener. */
    static String saslProperties() {
        StringBuilder props = new StringBuilder();
        sasl(KAFKA_SECRET).forEach((k, v) -> props.append(k).append('=').append(v).append('\n'));
        props.append("client.id=from-env\n").append("session.timeout.ms=6000\n");
        return props.toString();
    }

    /** Runs {@code mmgr ARGS} as a child JVM with {@code env}; returns its output. */
    static String runMain(Map<String, String> env, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ChildScorer.java()));
        cmd.addAll(ChildScorer.FAST_START);
        cmd.addAll(List.of("-cp", ChildScorer.classpath(), "io.mmgr.stream.cli.Main"));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("MMGR_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Order(2)
    void inProcessLogsMetricsAndErrorMessagesCarryNoCredential() throws Exception {
        Map<String, String> good = new HashMap<>(sasl(KAFKA_SECRET));
        good.put("mmgr.schema-registry.basic.auth.user.info", REGISTRY_USER + ":" + REGISTRY_SECRET);
        ScorerSettings settings = ScorerSettings.defaults().withPrefix("sec2.").withPartitions(2)
                .withApplicationId("secrets-inproc").withStreamThreads(1).withKafkaOverrides(good);
        String logs;
        try (LogCapture capture = new LogCapture(Level.INFO)) {
            try (ScorerApp app = ScorerApp.start(settings, infra.saslBootstrapServers(), proxy.url(), dir.resolve("inproc"),
                    Duration.ofMinutes(2))) {
                publishSample(infra.topics("sec2.", 2), "inproc-run");

                StringBuilder metrics = new StringBuilder();
                app.streams().metrics().forEach((name, metric) -> metrics.append(name).append(" = ")
                        .append(metric.metricValue()).append('\n'));
                assertThat(metrics).contains("process-total");
                assertNoSecret("Kafka Streams metrics", metrics.toString());
                assertNoSecret("JMX", jmxDump());
            }

            Map<String, String> wrongKafka = new HashMap<>(good);
            wrongKafka.putAll(sasl(WRONG_KAFKA));
            Throwable kafkaError = catchThrowable(() -> ScorerApp.start(settings.withKafkaOverrides(wrongKafka),
                    infra.saslBootstrapServers(), proxy.url(), dir.resolve("inproc-wrong"), Duration.ofSeconds(60)));
            assertThat(kafkaError).as("a wrong SASL password fails the start").isNotNull();
            assertThat(stackTrace(kafkaError)).containsIgnoringCase("authentication");
            assertNoSecret("the error of a wrong SASL password", stackTrace(kafkaError));

            for (SchemaRegistryClient wrong : List.of(
                    new SchemaRegistryClient(proxy.url(), Map.of("basic.auth.user.info", REGISTRY_USER + ":" + WRONG_REGISTRY)),
                    new SchemaRegistryClient(proxy.url(REGISTRY_USER, WRONG_REGISTRY)))) {
                assertThat(wrong.toString()).doesNotContain(WRONG_REGISTRY);
                Throwable registryError = catchThrowable(wrong::subjects);
                assertThat(registryError).isInstanceOf(RegistryException.class).hasMessageContaining("HTTP 401");
                assertNoSecret("the error of wrong registry credentials", stackTrace(registryError));
            }
            logs = capture.text();
        }
        assertThat(logs).contains("sasl.jaas.config = [hidden]");
        assertNoSecret("this JVM's logs", logs);
    }

    static String jmxDump() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        StringBuilder out = new StringBuilder();
        for (ObjectName name : server.queryNames(null, null)) {
            out.append(name).append('\n');
            if (!name.getDomain().startsWith("kafka")) {
                continue;
            }
            for (MBeanAttributeInfo a : server.getMBeanInfo(name).getAttributes()) {
                try {
                    out.append("  ").append(a.getName()).append('=').append(server.getAttribute(name, a.getName())).append('\n');
                } catch (Exception | Error unreadable) {
                    // an attribute that cannot be read shows nothing
                }
            }
        }
        return out.toString();
    }

    @Test
    @Order(3)
    void clientCommandsAuthenticateAndPrintNoCredential() throws Exception {
        List<String> common = new ArrayList<>(List.of("--bootstrap-servers", infra.saslBootstrapServers(),
                "--schema-registry-url", proxy.url(), "--topic-prefix", "sec."));
        sasl(KAFKA_SECRET).forEach((k, v) -> common.addAll(List.of("-P", k + "=" + v)));
        common.addAll(List.of("-P", "mmgr.schema-registry.basic.auth.user.info=" + REGISTRY_USER + ":" + REGISTRY_SECRET));
        String[] ok = cli(0, concat(List.of("leaderboard", "--json"), common));
        assertThat(ok[0]).contains("env-run");
        assertNoSecret("leaderboard output", ok[0] + ok[1]);

        List<String> wrong = new ArrayList<>(common);
        wrong.set(wrong.indexOf("sasl.jaas.config=" + jaas(KAFKA_SECRET)), "sasl.jaas.config=" + jaas(WRONG_KAFKA));
        String[] refused = cli(-1, concat(List.of("leaderboard"), wrong));
        assertThat(refused[1]).startsWith("error:");
        assertNoSecret("leaderboard error", refused[0] + refused[1]);
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Runs the command line in this JVM; {@code expected} exit code, or -1 for any failure. */
    static String[] cli(int expected, List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args.toArray(String[]::new));
        if (expected >= 0) {
            assertThat(code).as("exit code; stderr: %s", err).isEqualTo(expected);
        } else {
            assertThat(code).as("exit code of a refused command").isNotZero();
        }
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    @Order(4)
    void theJudgesApiKeyReachesTheProviderAndNothingElse() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        // the first call is refused with the key echoed back in the error body, as real providers do
        try (ScriptedVlmServer vlm = ScriptedVlmServer.start(e -> calls.getAndIncrement() == 0
                ? ScriptedVlmServer.Action.of(ScriptedVlmServer.Kind.UNAUTHORIZED)
                : ScriptedVlmServer.Action.ok(Duration.ZERO, Map.of("final_correctness", 1.0, "intermediate_correctness", 1.0)))) {
            Path data = dir.resolve("judged");
            Map<String, String> env = new HashMap<>();
            env.put("MMGR_BOOTSTRAP_SERVERS", infra.saslBootstrapServers());
            env.put("MMGR_SCHEMA_REGISTRY_URL", proxy.url(REGISTRY_USER, REGISTRY_SECRET));
            env.put("MMGR_KAFKA_PROPERTIES", saslProperties());
            env.put("MMGR_DATA_DIR", data.toString());
            env.put("MMGR_APPLICATION_ID", "secrets-judged");
            env.put("MMGR_TOPIC_PREFIX", "sec3.");
            env.put("MMGR_PARTITIONS", "3");
            env.put("MMGR_REPLICATION_FACTOR", "1");
            env.put("MMGR_THREADS", "1");
            env.put("MMGR_WEB_PORT", "0");
            // the judge, in-process, configured only by the environment; the key in a variable of its own
            env.put("MMGR_JUDGE_PROTOCOL", "openai");
            env.put("MMGR_JUDGE_BASE_URL", vlm.openAiBaseUrl());
            env.put("MMGR_JUDGE_MODEL", "secret-judge-model");
            env.put("MMGR_JUDGE_API_KEY_ENV", "SECRETS_TEST_JUDGE_KEY");
            env.put("SECRETS_TEST_JUDGE_KEY", JUDGE_KEY);
            env.put("MMGR_JUDGE_RPS", "20");
            env.put("MMGR_JUDGE_TIMEOUT", "PT10S");
            env.put("MMGR_JUDGE_CIRCUIT_OPEN_FOR", "PT1S");
            ChildScorer child = new ChildScorer("judged", data, List.of(), env, List.of("-Dlog4j2.configurationFile=" + allInfoLogging().toUri()));
            Topics t = infra.topics("sec3.", 3);
            SampleKey key = new SampleKey("judged-run", "c1", "math", "m1", 0);
            try (child) {
                child.start(Duration.ofMinutes(2));
                // the banner's lines follow the "running" line that start() waits for
                ScorerHarness.await(child::log, l -> l.contains("Judge                   : openai secret-judge-model at "
                        + vlm.openAiBaseUrl()), Duration.ofSeconds(30), "the judge in the banner");
                Matcher dashboard = Pattern.compile("Dashboard\\s+: (http://\\S+/)").matcher(child.log());
                assertThat(dashboard.find()).as("the dashboard's address in the banner").isTrue();
                String web = dashboard.group(1);

                BenchmarkItem item = BenchmarkItem.newBuilder().setTask("math").setSampleId("m1").setPrompt("case=secret Solve 3x = 12.")
                        .setGroundTruth(GroundTruth.newBuilder().setAnswer("x = 4").build()).build();
                GenerationEvent event = GenerationEvent.newBuilder().setRunId("judged-run").setModel("m").setCheckpointId("c1")
                        .setTrainingStep(1).setTask("math").setSampleId("m1").setModality("text").setProducedAt(Instant.now())
                        .setInputs(GenerationInputs.newBuilder().setText("3x = 12, so x = 4").build()).build();
                try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", infra.bootstrapServers()),
                        new ByteArraySerializer(), new ByteArraySerializer())) {
                    p.send(new ProducerRecord<>(t.benchmark.name(), "math/m1".getBytes(StandardCharsets.UTF_8),
                            t.benchmark.valueSerde().serializer().serialize(t.benchmark.name(), item))).get();
                    p.send(new ProducerRecord<>(t.generations.name(), "k".getBytes(StandardCharsets.UTF_8),
                            t.generations.valueSerde().serializer().serialize(t.generations.name(), event))).get();
                }
                ScorerHarness.await(() -> infra.scoreRecords(t), r -> r.containsKey(key)
                        && "COMPLETE".equals(r.get(key).get(r.get(key).size() - 1).getStatus()), WAIT, "the sample judged");

                // the key was really sent, refused once with its echo, which the scorer redacted
                assertThat(vlm.seen()).hasSizeGreaterThanOrEqualTo(2)
                        .allSatisfy(s -> assertThat(s.authorization()).isEqualTo("Bearer " + JUDGE_KEY));
                List<String> reasons = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : TopicSnapshot.all(infra.clientConfig(), t.judgeVerdicts.name(), WAIT)) {
                    reasons.add(String.valueOf(t.judgeVerdicts.valueSerde().deserializer().deserialize(r.topic(), r.value()).getReason()));
                }
                assertThat(reasons).anySatisfy(r -> assertThat(r).contains("HTTP 401", "Incorrect API key provided: ***"));
                assertNoSecret("judge verdict reasons", String.join("\n", reasons));

                String metrics = httpGet(web + "metrics");
                assertThat(metrics).contains("mmgr_judge_calls", "mmgr_judge_requests");
                assertNoSecret("/metrics", metrics);
                String sample = httpGet(web + "api/sample?run=judged-run&checkpoint=c1&task=math&sample=m1");
                assertThat(sample).contains("judge.final_correctness");
                assertNoSecret("/api/sample", sample);
                assertNoSecret("/api/leaderboard", httpGet(web + "api/leaderboard?run=judged-run"));
                assertThat(child.stop()).isIn(0, 143);
            }
            String all = child.allLogs();
            assertThat(all).contains("judge worker").contains("sasl.jaas.config = [hidden]");
            assertNoSecret("the judged scorer's output", all);
            for (List<String> args : List.of(List.of("run", "--help"), List.of("judge-worker", "--help"))) {
                String help = runMain(env, args);
                assertThat(help).contains("--judge-api-key-env");
                assertNoSecret("mmgr " + String.join(" ", args) + " with the judge's environment", help);
            }
        }
    }

    static String httpGet(String url) throws Exception {
        var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    @Order(5)
    void noTopicHoldsACredential() throws Exception {
        Set<String> topics;
        try (Admin admin = Admin.create(infra.clientConfig())) {
            topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
        }
        assertThat(topics).contains("sec.sample-scores", "sec.dead-letter", "sec2.sample-scores", "sec3.judge-verdicts",
                "sec3.judge-cache", "sec3.judge-requests", "__consumer_offsets");
        long records = 0;
        Map<String, Long> byTopic = new HashMap<>();
        Map<String, Object> conf = new HashMap<>(infra.clientConfig());
        conf.put("isolation.level", "read_uncommitted"); // aborted writes too
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(conf, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : topics) {
                consumer.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime()).as("all topics read within a minute").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    records++;
                    String topic = r.topic();
                    byTopic.merge(topic, 1L, Long::sum);
                    assertNoSecret(topic + " key", r.key());
                    assertNoSecret(topic + " value", r.value());
                    for (Header h : r.headers()) {
                        assertNoSecret(topic + " header " + h.key(), h.value());
                    }
                }
            }
        }
        assertThat(records).as("records searched").isGreaterThan(20);
        // the judge's topics, its shared cache included, were searched too
        assertThat(byTopic.getOrDefault("sec3.judge-cache", 0L)).as("judge cache records").isPositive();
        assertThat(byTopic.getOrDefault("sec3.judge-verdicts", 0L)).as("judge verdicts (PENDING, then VALID)").isGreaterThanOrEqualTo(2);
        System.out.printf("secrets: %d topics, %d records searched, no credential found%n", topics.size(), records);
    }
}
