package io.mmgr.stream.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.contract.SampleKeys;
import io.mmgr.stream.it.PythonRunner;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client speaks the scorer's contract, not a copy of it: the schemas it assembles from
 * schemas/*.avsc are the generated classes' schemas, the package pip builds carries exactly the
 * repository's files, and its task list is the scorer's task catalog ({@code -Dmmgr.client.update=true}
 * regenerates clients/python/mmgr_client/tasks.json).
 */
@Tag("integration")
class PythonClientContractTest {

    static final Path CLIENT = Path.of("clients", "python");
    static final Path TASKS_FILE = CLIENT.resolve(Path.of("mmgr_client", "tasks.json"));
    static final Path SCHEMAS = Path.of("schemas");

    static String tasksJson() {
        ObjectNode tasks = JsonAvro.MAPPER.createObjectNode();
        for (TaskSpec spec : new TreeMap<>(Map.copyOf(byId())).values()) {
            ObjectNode t = tasks.putObject(spec.id());
            t.put("family", spec.family());
            t.put("benchmark", spec.benchmark());
            ArrayNode modalities = t.putArray("modalities");
            new TreeSet<>(spec.modalities()).forEach(modalities::add);
        }
        ObjectNode root = JsonAvro.MAPPER.createObjectNode();
        root.put("generatedBy", "PythonClientContractTest from the scorer's TaskCatalog; do not edit");
        root.set("tasks", tasks);
        try {
            return JsonAvro.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, TaskSpec> byId() {
        Map<String, TaskSpec> out = new TreeMap<>();
        TaskCatalog.load().all().forEach(s -> out.put(s.id(), s));
        return out;
    }

    @Test
    void theClientsTaskListIsTheScorersTaskCatalog() throws IOException {
        String expected = tasksJson();
        if (Boolean.getBoolean("mmgr.client.update")) {
            Files.writeString(TASKS_FILE, expected, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(TASKS_FILE, StandardCharsets.UTF_8))
                .as("%s drifted from the task catalog; regenerate with -Dmmgr.client.update=true", TASKS_FILE)
                .isEqualTo(expected);
    }

    @Test
    void everySchemaThePythonClientAssemblesIsTheGeneratedClassesSchema() throws Exception {
        PythonRunner.requireClient();
        // each schema as the client assembles and registers it, one "Name<TAB>json" line each
        PythonRunner.Result r = PythonRunner.run(List.of("-c",
                "from mmgr_client.schemas import SchemaSet\n"
                        + "s = SchemaSet()\n"
                        + "print(s.directory)\n"
                        + "for n in s.names(): print(n + '\\t' + s.text(n))\n"), Map.of(), Path.of("."));
        assertThat(r.code()).as(r.out()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(Path.of(lines.get(0)).toRealPath()).as("read from the repository's schemas/").isEqualTo(SCHEMAS.toRealPath());
        List<String> names = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] parts = line.split("\t", 2);
            Schema python = new Schema.Parser().parse(parts[1]);
            Schema java = SpecificData.get().getSchema(Class.forName("io.mmgr.stream.avro." + parts[0]));
            assertThat(SchemaNormalization.parsingFingerprint64(python)).as("%s as the Python client sends it", parts[0])
                    .isEqualTo(SchemaNormalization.parsingFingerprint64(java));
            // docs and defaults too: everything but the code generator's Java-only string property
            assertThat(python).as("%s with docs and defaults", parts[0]).isEqualTo(withoutJavaProps(java));
            names.add(parts[0]);
        }
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            assertThat(names).containsExactlyInAnyOrderElementsOf(files.map(p -> p.getFileName().toString())
                    .filter(f -> f.endsWith(".avsc")).map(f -> f.substring(0, f.length() - 5)).toList());
        }
    }

    static Schema withoutJavaProps(Schema generated) throws IOException {
        com.fasterxml.jackson.databind.JsonNode tree = JsonAvro.MAPPER.readTree(generated.toString());
        strip(tree);
        return new Schema.Parser().parse(tree.toString());
    }

    static void strip(com.fasterxml.jackson.databind.JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove("avro.java.string");
        }
        node.forEach(PythonClientContractTest::strip);
    }

    /**
     * The client sends each generation event to the partition the scorer computes for its sample (murmur2 of the
     * key's fields, as {@link SampleKeys#partition}), so that the task reading it assembles it: random keys of
     * every length modulo 4, with non-ASCII characters, on several partition counts.
     */
    @Test
    void theClientPutsAnEventOnItsSamplesPartitionAsTheScorerComputesIt(@TempDir Path dir) throws Exception {
        PythonRunner.requireClient();
        java.util.Random random = new java.util.Random(20261203);
        String alphabet = "abcXYZ019-_./ éü日本\uD83D\uDE00";
        ArrayNode keys = JsonAvro.MAPPER.createArrayNode();
        List<SampleKey> sampleKeys = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String[] f = new String[4];
            for (int j = 0; j < 4; j++) {
                StringBuilder b = new StringBuilder();
                for (int n = random.nextInt(1, 14); n > 0; n--) {
                    int c = random.nextInt(alphabet.length() - 1);
                    b.append(Character.isHighSurrogate(alphabet.charAt(c)) ? alphabet.substring(c, c + 2) : String.valueOf(alphabet.charAt(c)));
                }
                f[j] = b.toString();
            }
            SampleKey k = new SampleKey(f[0], f[1], f[2], f[3], random.nextInt(-3, 100_000));
            sampleKeys.add(k);
            ObjectNode o = keys.addObject();
            o.put("runId", k.getRunId()).put("checkpointId", k.getCheckpointId()).put("task", k.getTask())
                    .put("sampleId", k.getSampleId()).put("seed", k.getSeed());
        }
        Path file = dir.resolve("keys.json");
        Files.writeString(file, keys.toString(), StandardCharsets.UTF_8);
        int[] counts = {1, 6, 7, 64};
        PythonRunner.Result r = PythonRunner.run(List.of("-c", "import json, sys; from mmgr_client.partitioning import sample_partition; "
                + "keys = json.load(open(sys.argv[1], encoding='utf-8')); "
                + "print(json.dumps([[sample_partition(k, n) for n in (1, 6, 7, 64)] for k in keys]))", file.toString()),
                Map.of(), Path.of("."));
        assertThat(r.code()).as(r.out()).isZero();
        com.fasterxml.jackson.databind.JsonNode got = JsonAvro.MAPPER.readTree(r.out().strip().lines().reduce((a, b) -> b).orElseThrow());
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < sampleKeys.size(); i++) {
            for (int c = 0; c < counts.length; c++) {
                int expected = SampleKeys.partition(sampleKeys.get(i), counts[c]);
                assertThat(got.get(i).get(c).asInt()).as("%s on %d partitions", SampleKeys.ref(sampleKeys.get(i)), counts[c])
                        .isEqualTo(expected);
                if (counts[c] == 64) {
                    seen.add(expected);
                }
            }
        }
        // the keys spread: a constant answer would not pass
        assertThat(seen).hasSizeGreaterThan(40);

        // a seed left out is the schema's default, 0; an event missing a key field is left to the producer
        // (None): it is still sent, and the scorer says what is wrong with it
        SampleKey noSeed = new SampleKey("run-ü", "ckpt", "maze", "m-17", 0);
        PythonRunner.Result edge = PythonRunner.run(List.of("-c", "import json; from mmgr_client.partitioning import sample_partition; "
                + "print(json.dumps([sample_partition({'runId': 'run-\\u00fc', 'checkpointId': 'ckpt', 'task': 'maze', 'sampleId': 'm-17'}, 64), "
                + "sample_partition({'runId': 'run', 'task': 'maze', 'sampleId': 'm-17'}, 64), "
                + "sample_partition({'runId': 'run', 'checkpointId': 'ckpt', 'task': 'maze', 'sampleId': 'm-17', 'seed': '3'}, 64)]))"),
                Map.of(), Path.of("."));
        assertThat(edge.code()).as(edge.out()).isZero();
        com.fasterxml.jackson.databind.JsonNode e = JsonAvro.MAPPER.readTree(edge.out().strip().lines().reduce((a, b) -> b).orElseThrow());
        assertThat(e.get(0).asInt()).isEqualTo(SampleKeys.partition(noSeed, 64));
        assertThat(e.get(1).isNull()).as("no checkpoint id").isTrue();
        assertThat(e.get(2).isNull()).as("a seed that is not an int").isTrue();
    }

    @Test
    void theClientReadsTheEndpointsFileTheScorerWrites(@TempDir Path dir) throws Exception {
        PythonRunner.requireClient();
        new io.mmgr.stream.app.Endpoints("127.0.0.1:19092,[::1]:19093", "http://127.0.0.1:18081/ccompat v7", "team a.").write(dir);
        PythonRunner.Result r = PythonRunner.run(List.of("-c", "import json, sys; from mmgr_client import read_endpoints; "
                + "print(json.dumps(read_endpoints(sys.argv[1]), sort_keys=True))", dir.resolve("endpoints.properties").toString()),
                Map.of(), Path.of("."));
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(JsonAvro.MAPPER.readTree(r.out())).isEqualTo(JsonAvro.MAPPER.readTree(
                "{\"bootstrap_servers\": \"127.0.0.1:19092,[::1]:19093\", \"schema_registry_url\": \"http://127.0.0.1:18081/ccompat v7\","
                        + " \"topic_prefix\": \"team a.\"}"));
    }

    @Test
    void pipBuildsThePackageWithTheRepositorysSchemasAndTaskList(@TempDir Path dir) throws Exception {
        PythonRunner.requireClient();
        PythonRunner.Result pip = PythonRunner.run(List.of("-m", "pip", "--version"), Map.of(), Path.of("."));
        io.mmgr.stream.it.SystemPackages.require(pip.code() == 0, "pip is missing: " + pip.out().trim()
                + ". Install the Debian package python3-pip (.ci/run does).", "mmgr.interop.required");
        // a copy of the client beside a copy of schemas/, laid out as in the repository, so the build leaves no trace here
        Path repo = dir.resolve("repo");
        copyTree(CLIENT, repo.resolve(CLIENT), p -> {
            for (Path part : CLIENT.relativize(p)) {
                String n = part.toString();
                if (n.equals("__pycache__") || n.endsWith(".egg-info") || n.equals("build") || n.equals("tests")) {
                    return false;
                }
            }
            return !p.startsWith(CLIENT.resolve(Path.of("mmgr_client", "schemas")));
        });
        copyTree(SCHEMAS, repo.resolve(SCHEMAS), p -> true);
        PythonRunner.Result built = PythonRunner.run(List.of("-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                "--no-index", "-w", dir.resolve("wheel").toString(), repo.resolve(CLIENT).toString()), Map.of(), repo);
        assertThat(built.code()).as(built.out()).isZero();
        Path wheel;
        try (Stream<Path> files = Files.list(dir.resolve("wheel"))) {
            wheel = files.filter(p -> p.toString().endsWith(".whl")).findFirst().orElseThrow();
        }
        Map<String, byte[]> inWheel = new TreeMap<>();
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(wheel))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                inWheel.put(e.getName(), zip.readAllBytes());
            }
        }
        try (Stream<Path> files = Files.list(SCHEMAS)) {
            for (Path avsc : files.filter(p -> p.toString().endsWith(".avsc")).toList()) {
                String name = "mmgr_client/schemas/" + avsc.getFileName();
                assertThat(inWheel).as("the wheel has %s", name).containsKey(name);
                assertThat(inWheel.get(name)).as(name).isEqualTo(Files.readAllBytes(avsc));
            }
        }
        assertThat(inWheel.get("mmgr_client/tasks.json")).isEqualTo(Files.readAllBytes(TASKS_FILE));
        assertThat(inWheel).containsKey("mmgr_client/evaluator.py");
    }

    interface PathFilter {
        boolean keep(Path p);
    }

    static void copyTree(Path from, Path to, PathFilter keep) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : all.toList()) {
                if (!keep.keep(p)) {
                    continue;
                }
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    try (InputStream in = Files.newInputStream(p)) {
                        Files.copy(in, target);
                    }
                }
            }
        }
    }
}
