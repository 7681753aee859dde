package io.mmgr.stream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.cli.JudgeWorkerCommand;
import io.mmgr.stream.cli.Main;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * docker-compose.yml cannot be started here (no Docker), so its structure is checked: the services
 * of the production shape, a consistent three-node KRaft quorum, ports, health checks and
 * depends_on, scorers built from this repository's Dockerfile, the judge worker on the scorers' topics
 * with its key from the host, and every MMGR_* variable it (or the Dockerfile) sets being one the
 * service's own command actually reads.
 */
@Tag("unit")
class ComposeFileTest {

    static final Pattern ENV_REF = Pattern.compile("\\$\\{env:(MMGR_[A-Z0-9_]+)");
    static final Pattern MMGR_VAR = Pattern.compile("\\b(MMGR_[A-Z0-9_]+)\\b");
    static final Pattern HOST_VAR = Pattern.compile("\\$\\{([A-Z0-9_]+)(:-)?}");

    static Map<String, Object> compose;
    static Map<String, Map<String, Object>> services;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void parse() throws IOException {
        compose = new Yaml(new LoaderOptions()).load(Files.readString(Path.of("docker-compose.yml"), StandardCharsets.UTF_8));
        services = (Map<String, Map<String, Object>>) compose.get("services");
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> env(String service) {
        Map<String, Object> raw = (Map<String, Object>) services.get(service).getOrDefault("environment", Map.of());
        Map<String, String> out = new LinkedHashMap<>();
        raw.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    @SuppressWarnings("unchecked")
    static List<String> list(String service, String key) {
        Object v = services.get(service).get(key);
        return v == null ? List.of() : ((List<Object>) v).stream().map(String::valueOf).toList();
    }

    static List<String> brokers() {
        return services.keySet().stream().filter(s -> s.startsWith("kafka-")).sorted().toList();
    }

    static List<String> scorers() {
        return services.keySet().stream().filter(s -> s.startsWith("scorer-")).sorted().toList();
    }

    @Test
    void theProductionShapeIsThere() {
        assertThat(services.keySet()).containsExactlyInAnyOrder("kafka-1", "kafka-2", "kafka-3", "schema-registry",
                "scorer-1", "scorer-2", "judge-worker");
        assertThat(brokers()).allSatisfy(b -> assertThat(String.valueOf(services.get(b).get("image"))).startsWith("apache/kafka:"));
        assertThat(String.valueOf(services.get("schema-registry").get("image"))).startsWith("confluentinc/cp-schema-registry:");
    }

    /**
     * The cluster harness (bench cluster, ClusterFaultTest) runs the brokers with the compose file's settings: every
     * KAFKA_* setting but the node's identity, listeners and storage is one of its server properties, and the same.
     */
    @Test
    void theClusterHarnessRunsTheBrokersWithTheseSettings() {
        Set<String> topology = Set.of("PROCESS_ROLES", "CONTROLLER_QUORUM_VOTERS", "CONTROLLER_LISTENER_NAMES",
                "INTER_BROKER_LISTENER_NAME", "LISTENER_SECURITY_PROTOCOL_MAP", "LOG_DIRS", "NODE_ID", "LISTENERS",
                "ADVERTISED_LISTENERS");
        Map<String, String> fromCompose = new java.util.TreeMap<>();
        env("kafka-1").forEach((k, v) -> {
            String name = k.substring(k.indexOf('_') + 1);
            if (k.startsWith("KAFKA_") && !topology.contains(name)) {
                fromCompose.put(name.toLowerCase(java.util.Locale.ROOT).replace('_', '.'), v);
            }
        });
        assertThat(fromCompose).isNotEmpty().isEqualTo(new java.util.TreeMap<>(io.mmgr.stream.bench.cluster.KafkaCluster.COMPOSE_SETTINGS));
    }

    @Test
    void threeCombinedKraftNodesFormOneQuorum() {
        Set<String> ids = new HashSet<>();
        Set<String> clusterIds = new HashSet<>();
        Set<String> voters = new HashSet<>();
        for (String b : brokers()) {
            Map<String, String> e = env(b);
            assertThat(e.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
            ids.add(e.get("KAFKA_NODE_ID"));
            clusterIds.add(e.get("CLUSTER_ID"));
            voters.add(e.get("KAFKA_CONTROLLER_QUORUM_VOTERS"));
            String host = String.valueOf(services.get(b).get("hostname"));
            assertThat(host).isEqualTo(b);
            // this node is a voter at its own host and controller port
            assertThat(e.get("KAFKA_CONTROLLER_QUORUM_VOTERS")).contains(e.get("KAFKA_NODE_ID") + "@" + host + ":9093");
            assertThat(e.get("KAFKA_LISTENERS")).contains("CONTROLLER://:9093").contains("PLAINTEXT://:9092");
            assertThat(e.get("KAFKA_ADVERTISED_LISTENERS")).contains("PLAINTEXT://" + host + ":9092");
            assertThat(Integer.parseInt(e.get("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"))).isEqualTo(brokers().size());
            assertThat(Integer.parseInt(e.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR"))).isEqualTo(brokers().size());
            assertThat(e.get("KAFKA_AUTO_CREATE_TOPICS_ENABLE")).isEqualTo("false");
        }
        assertThat(ids).containsExactlyInAnyOrder("1", "2", "3");
        assertThat(clusterIds).hasSize(1);
        assertThat(voters).as("one voter set for all nodes").hasSize(1);
        assertThat(voters.iterator().next().split(",")).hasSize(3);
    }

    @Test
    void publishedPortsAreDistinctAndSomethingListensOnThem() {
        Set<String> hostPorts = new HashSet<>();
        for (String s : services.keySet()) {
            for (String mapping : list(s, "ports")) {
                String[] parts = mapping.split(":");
                assertThat(hostPorts.add(parts[0])).as("host port %s published twice", parts[0]).isTrue();
                String containerPort = parts[parts.length - 1];
                String listeners = s.startsWith("kafka-") ? env(s).get("KAFKA_LISTENERS")
                        : s.startsWith("scorer-") ? env(s).get("MMGR_WEB_BIND") + ":" + env(s).get("MMGR_WEB_PORT")
                        : env(s).getOrDefault("SCHEMA_REGISTRY_LISTENERS", "");
                assertThat(listeners).as("%s listens on its published port %s", s, containerPort).contains(":" + containerPort);
                if (s.startsWith("kafka-")) {
                    assertThat(env(s).get("KAFKA_ADVERTISED_LISTENERS")).contains("EXTERNAL://localhost:" + parts[0]);
                }
            }
        }
        assertThat(hostPorts).contains("8081", "19092", "29092", "39092");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyServiceHasAHealthCheckAndWaitsForHealthyDependencies() {
        for (var e : services.entrySet()) {
            Map<String, Object> hc = (Map<String, Object>) e.getValue().get("healthcheck");
            assertThat(hc).as("health check of %s", e.getKey()).isNotNull();
            assertThat((List<Object>) hc.get("test")).as("health check command of %s", e.getKey()).isNotEmpty();
            Object deps = e.getValue().get("depends_on");
            if (deps instanceof Map<?, ?> m) {
                m.forEach((dep, cond) -> {
                    assertThat(services).as("%s depends on a defined service", e.getKey()).containsKey(String.valueOf(dep));
                    assertThat(((Map<String, Object>) cond).get("condition")).isEqualTo("service_healthy");
                });
            }
        }
        for (String s : scorers()) {
            Set<String> deps = ((Map<String, Object>) services.get(s).get("depends_on")).keySet();
            assertThat(deps).containsAll(brokers()).contains("schema-registry");
        }
        // the scorer health check reads the file the scorer writes (cli.HealthFile)
        String check = String.join(" ", (List<String>) ((Map<String, Object>) services.get("scorer-1").get("healthcheck")).get("test"));
        assertThat(check).contains(env("scorer-1").get("MMGR_DATA_DIR") + "/scorer.state").contains("RUNNING");
    }

    @Test
    void scorersAreBuiltFromThisRepositoryAndShareTheWork() throws IOException {
        assertThat(Path.of("Dockerfile")).exists();
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertThat(dockerfile).contains("mvn -B -ntp -q -DskipTests package").contains("ENTRYPOINT [\"/opt/mmgr/bin/mmgr\"]")
                .contains("COPY bin/mmgr");
        Set<String> appIds = new HashSet<>();
        Set<String> dataVolumes = new HashSet<>();
        for (String s : scorers()) {
            assertThat(String.valueOf(services.get(s).get("build"))).isEqualTo(".");
            Map<String, String> e = env(s);
            appIds.add(e.get("MMGR_APPLICATION_ID"));
            list(s, "volumes").stream().filter(v -> v.endsWith(":" + e.get("MMGR_DATA_DIR"))).forEach(dataVolumes::add);
            // bootstrap servers are exactly the brokers' internal listeners
            Set<String> expected = new TreeSet<>();
            brokers().forEach(b -> expected.add(b + ":9092"));
            assertThat(new TreeSet<>(List.of(e.get("MMGR_BOOTSTRAP_SERVERS").split(",")))).isEqualTo(expected);
            assertThat(e.get("MMGR_SCHEMA_REGISTRY_URL")).isEqualTo("http://schema-registry:8081");
            assertThat(Integer.parseInt(e.get("MMGR_REPLICATION_FACTOR"))).isBetween(1, brokers().size());
            assertThat(Integer.parseInt(e.get("MMGR_PARTITIONS"))).isGreaterThanOrEqualTo(scorers().size());
            assertThat(list(s, "volumes")).anySatisfy(v -> assertThat(v).endsWith(":" + e.get("MMGR_ARTIFACT_ROOTS") + ":ro"));
        }
        assertThat(appIds).as("one application.id: the instances share the partitions").hasSize(1);
        assertThat(dataVolumes).as("each instance its own state directory").hasSize(scorers().size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void commandsAreSubcommandsOfTheApplication() {
        Set<String> subcommands = Main.commandLine().getSubcommands().keySet();
        for (var e : services.entrySet()) {
            Object cmd = e.getValue().get("command");
            if (cmd == null || !String.valueOf(e.getValue().get("image")).startsWith("mmgr-stream")) {
                continue;
            }
            String first = String.valueOf(((List<Object>) cmd).get(0));
            assertThat(subcommands).as("command of %s", e.getKey()).contains(first);
        }
    }

    @Test
    void everyMmgrVariableSetIsOneTheApplicationReads() throws IOException {
        Set<String> read = variablesTheApplicationReads();
        // sanity: the run command's flags are all there
        assertThat(read).contains("MMGR_BOOTSTRAP_SERVERS", "MMGR_SCHEMA_REGISTRY_URL", "MMGR_APPLICATION_ID",
                "MMGR_TOPIC_PREFIX", "MMGR_PARTITIONS", "MMGR_REPLICATION_FACTOR", "MMGR_ARTIFACT_ROOTS",
                "MMGR_DATA_DIR", "MMGR_KAFKA_PROPERTIES", "MMGR_LOG_LEVEL", "MMGR_JAVA_OPTS", "MMGR_JUDGE_PROTOCOL",
                "MMGR_JUDGE_EXTERNAL");
        Set<String> set = new TreeSet<>();
        for (String s : services.keySet()) {
            env(s).keySet().stream().filter(k -> k.startsWith("MMGR_")).forEach(set::add);
        }
        Matcher m = MMGR_VAR.matcher(Files.readString(Path.of("Dockerfile")));
        while (m.find()) {
            set.add(m.group(1));
        }
        assertThat(set).isNotEmpty();
        assertThat(read).as("variables the application reads").containsAll(set);
        // and the configuration guide documents each of them
        String guide = Files.readString(Path.of("docs", "configuration.md"));
        assertThat(set).allSatisfy(v -> assertThat(guide).as("docs/configuration.md documents %s", v).contains(v));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachServiceSetsOnlyVariablesItsOwnCommandReads() throws IOException {
        for (var e : services.entrySet()) {
            Object cmd = e.getValue().get("command");
            if (cmd == null || !String.valueOf(e.getValue().get("image")).startsWith("mmgr-stream")) {
                continue;
            }
            String command = String.valueOf(((List<Object>) cmd).get(0));
            Set<String> read = variablesTheApplicationReads(command);
            assertThat(env(e.getKey()).keySet().stream().filter(k -> k.startsWith("MMGR_")).toList())
                    .as("MMGR_* variables of %s, read by '%s'", e.getKey(), command).isNotEmpty().allSatisfy(v -> assertThat(read).contains(v));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theJudgeWorkerServesTheScorersTopicsWithAKeyFromTheHost() {
        Map<String, String> judge = env("judge-worker");
        assertThat(list("judge-worker", "command")).containsExactly("judge-worker");
        // the scorers plan judge parts and leave them to the worker
        for (String s : scorers()) {
            assertThat(env(s)).containsEntry("MMGR_JUDGE_EXTERNAL", "true").doesNotContainKey("MMGR_JUDGE_PROTOCOL");
            // the same topics, Kafka, registry and application id (the worker's group is <id>-judge)
            for (String shared : List.of("MMGR_BOOTSTRAP_SERVERS", "MMGR_SCHEMA_REGISTRY_URL", "MMGR_TOPIC_PREFIX",
                    "MMGR_APPLICATION_ID", "MMGR_ARTIFACT_ROOTS", "MMGR_KAFKA_PROPERTIES")) {
                assertThat(judge.get(shared)).as("judge-worker's %s", shared).isEqualTo(env(s).get(shared));
            }
        }
        assertThat(judge.get("MMGR_JUDGE_PROTOCOL")).isIn("openai", "gemini");
        assertThat(judge.get("MMGR_JUDGE_BASE_URL")).startsWith("http");
        assertThat(judge.get("MMGR_JUDGE_MODEL")).isNotBlank();
        assertThat(list("judge-worker", "volumes")).anySatisfy(v -> assertThat(v).endsWith(":" + judge.get("MMGR_ARTIFACT_ROOTS") + ":ro"));
        // the key: its variable is passed through from the host, and nothing in the file is a key
        String keyVariable = judge.get("MMGR_JUDGE_API_KEY_ENV");
        assertThat(keyVariable).matches("[A-Z][A-Z0-9_]*");
        assertThat(judge.get(keyVariable)).as("the key comes from the host's %s", keyVariable).isEqualTo("${" + keyVariable + ":-}");
        for (String s : services.keySet()) {
            env(s).forEach((k, v) -> {
                if (k.endsWith("_KEY") || k.contains("SECRET") || k.contains("PASSWORD") || k.contains("TOKEN")) {
                    Matcher host = HOST_VAR.matcher(v);
                    assertThat(host.matches() && host.group(1).equals(k)).as("%s of %s passes the host's value through", k, s).isTrue();
                }
            });
        }
        // it starts once the topics exist, and its health check reads the state file the worker rewrites
        assertThat(((Map<String, Object>) services.get("judge-worker").get("depends_on")).keySet()).anyMatch(d -> d.startsWith("scorer-"));
        String check = String.join(" ", (List<String>) ((Map<String, Object>) services.get("judge-worker").get("healthcheck")).get("test"));
        String stateFile = judge.get("MMGR_DATA_DIR") + "/" + JudgeWorkerCommand.STATE_FILE;
        assertThat(check).contains("grep -qE '^(RUNNING|CIRCUIT_OPEN)' " + stateFile)
                .as("the file must be fresh: a hung worker stops rewriting it").contains("find " + stateFile + " -mmin -1");
    }

    @Test
    void whatListensBeyondLoopbackTakesTheAccessTokenFromTheHost() {
        for (String s : services.keySet()) {
            Map<String, String> env = env(s);
            boolean beyond = "0.0.0.0".equals(env.get("MMGR_WEB_BIND")) || "0.0.0.0".equals(env.get("MMGR_JUDGE_METRICS_BIND"));
            if (beyond) {
                assertThat(env).as("%s serves HTTP on every interface", s).containsEntry("MMGR_WEB_TOKEN", "${MMGR_WEB_TOKEN:-}")
                        .doesNotContainEntry("MMGR_WEB_AUTH", "none");
            }
        }
        assertThat(scorers()).allSatisfy(s -> assertThat(env(s)).containsEntry("MMGR_WEB_BIND", "0.0.0.0"));
    }

    /**
     * MMGR_* names in the picocli defaults of every command (and mixin) reachable from {@link Main},
     * in log4j2.xml and in bin/mmgr: the only places the application reads its environment.
     */
    static Set<String> variablesTheApplicationReads() throws IOException {
        return variablesTheApplicationReads(null);
    }

    /** The same for one subcommand of {@link Main} and those below it (null: all of them). */
    static Set<String> variablesTheApplicationReads(String command) throws IOException {
        Set<String> out = new TreeSet<>();
        CommandLine start = command == null ? Main.commandLine() : Main.commandLine().getSubcommands().get(command);
        assertThat(start).as("subcommand %s", command).isNotNull();
        List<CommandLine> todo = new ArrayList<>(List.of(start));
        while (!todo.isEmpty()) {
            CommandLine cl = todo.remove(todo.size() - 1);
            List<Class<?>> classes = new ArrayList<>();
            classes.add(cl.getCommandSpec().userObject().getClass());
            cl.getCommandSpec().mixins().values().forEach(mx -> classes.add(mx.userObject().getClass()));
            for (Class<?> c : classes) {
                for (Field f : c.getDeclaredFields()) {
                    CommandLine.Option o = f.getAnnotation(CommandLine.Option.class);
                    if (o != null) {
                        Matcher m = ENV_REF.matcher(o.defaultValue());
                        while (m.find()) {
                            out.add(m.group(1));
                        }
                    }
                }
            }
            todo.addAll(cl.getSubcommands().values());
        }
        for (String file : List.of("src/main/resources/log4j2.xml", "bin/mmgr")) {
            Matcher m = MMGR_VAR.matcher(Files.readString(Path.of(file)));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }
}
