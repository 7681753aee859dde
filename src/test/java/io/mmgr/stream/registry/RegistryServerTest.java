package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mmgr.stream.embedded.registry.RegistryServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The REST API of {@link RegistryServer}, spoken raw: paths, bodies, status and error codes as Confluent's. */
@Tag("unit")
class RegistryServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String V1 = "application/vnd.schemaregistry.v1+json";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static final String A = record("a:string");
    private static final String A_B_DEFAULT = record("a:string", "b:int=1");
    private static final String A_B_REQUIRED = record("a:string", "b:int");
    private static final String EMPTY = record();

    private RegistryServer server;

    @BeforeEach
    void start() throws IOException {
        server = start(null);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void registersWithGlobalContentAddressedIds() throws Exception {
        Answer first = post("/subjects/orders-value/versions", schemaBody(A));
        assertThat(first.status).isEqualTo(200);
        assertThat(first.contentType).isEqualTo(V1);
        assertThat(first.json).isEqualTo(JSON.readTree("{\"id\":1}"));

        // whitespace does not make another schema; the same schema elsewhere keeps its id
        assertThat(post("/subjects/orders-value/versions", schemaBody(A.replace(",", " ,  "))).json.get("id").asInt())
                .isEqualTo(1);
        assertThat(post("/subjects/other-value/versions", schemaBody(A)).json.get("id").asInt()).isEqualTo(1);
        assertThat(post("/subjects/orders-value/versions", schemaBody(A_B_DEFAULT)).json.get("id").asInt())
                .isEqualTo(2);

        assertThat(get("/subjects").json).isEqualTo(JSON.readTree("[\"orders-value\",\"other-value\"]"));
        assertThat(get("/subjects/orders-value/versions").json).isEqualTo(JSON.readTree("[1,2]"));
        assertThat(get("/subjects/other-value/versions").json).isEqualTo(JSON.readTree("[1]"));
    }

    @Test
    void servesSchemasByIdAndByVersion() throws Exception {
        post("/subjects/orders-value/versions", schemaBody(A));
        post("/subjects/orders-value/versions", schemaBody(A_B_DEFAULT));
        String canonicalA = new Schema.Parser().parse(A).toString();
        String canonicalAB = new Schema.Parser().parse(A_B_DEFAULT).toString();

        assertThat(get("/schemas/ids/1").json).isEqualTo(JSON.createObjectNode().put("schema", canonicalA));
        Answer raw = get("/schemas/ids/2/schema");
        assertThat(raw.contentType).isEqualTo(V1);
        assertThat(raw.json).isEqualTo(JSON.readTree(canonicalAB));

        JsonNode latest = get("/subjects/orders-value/versions/latest").json;
        assertThat(latest).isEqualTo(JSON.createObjectNode().put("subject", "orders-value").put("version", 2)
                .put("id", 2).put("schema", canonicalAB));
        assertThat(get("/subjects/orders-value/versions/1").json.get("id").asInt()).isEqualTo(1);
        assertThat(get("/subjects/orders-value/versions/-1").json.get("version").asInt()).isEqualTo(2);
        assertThat(get("/subjects/orders-value/versions/1/schema").json).isEqualTo(JSON.readTree(canonicalA));

        JsonNode found = post("/subjects/orders-value", schemaBody(A)).json;
        assertThat(found.get("version").asInt()).isEqualTo(1);
        assertThat(found.get("id").asInt()).isEqualTo(1);
        assertThat(found.get("subject").asText()).isEqualTo("orders-value");
    }

    @Test
    void errorsCarryConfluentsCodes() throws Exception {
        post("/subjects/orders-value/versions", schemaBody(A));

        expectError(get("/subjects/nope/versions"), 404, 40401);
        expectError(get("/subjects/nope/versions/latest"), 404, 40401);
        expectError(get("/subjects/orders-value/versions/7"), 404, 40402);
        expectError(get("/subjects/orders-value/versions/abc"), 422, 42202);
        expectError(get("/subjects/orders-value/versions/0"), 422, 42202);
        expectError(get("/schemas/ids/12345"), 404, 40403);
        expectError(post("/subjects/nope", schemaBody(A)), 404, 40401);
        expectError(post("/subjects/orders-value", schemaBody(A_B_DEFAULT)), 404, 40403);
        expectError(post("/subjects/orders-value/versions", schemaBody("{\"type\": \"recrod\"}")), 422, 42201);
        expectError(post("/subjects/orders-value/versions", "{\"schema\": \"{not json\"}"), 422, 42201);
        expectError(post("/subjects/orders-value/versions", "{}"), 422, 42201);
        expectError(put("/config", "{\"compatibility\": \"SIDEWAYS\"}"), 422, 42203);
        expectError(request("DELETE", "/schemas/ids/1", null, V1), 405, 405);
        expectError(get("/no/such/path"), 404, 404);
        expectError(post("/subjects/orders-value/versions", "not json"), 400, 400);

        Answer json = post("/subjects/j-value/versions", "{\"schemaType\": \"JSON\", \"schema\": \"{}\"}");
        expectError(json, 422, 42201);
        assertThat(json.json.get("message").asText()).contains("JSON").contains("AVRO");
        Answer refs = post("/subjects/r-value/versions", "{\"schema\": " + JSON.writeValueAsString(A)
                + ", \"references\": [{\"name\": \"x\", \"subject\": \"y\", \"version\": 1}]}");
        expectError(refs, 422, 42201);
        assertThat(get("/subjects").json).as("nothing registered by failed requests")
                .isEqualTo(JSON.readTree("[\"orders-value\"]"));
    }

    @Test
    void incompatibleSchemasGet409AndTheCheckEndpointAgrees() throws Exception {
        post("/subjects/orders-value/versions", schemaBody(A));

        assertThat(post("/compatibility/subjects/orders-value/versions/latest", schemaBody(A_B_REQUIRED)).json)
                .isEqualTo(JSON.readTree("{\"is_compatible\":false}"));
        Answer verbose = post("/compatibility/subjects/orders-value/versions/1?verbose=true", schemaBody(A_B_REQUIRED));
        assertThat(verbose.json.get("is_compatible").asBoolean()).isFalse();
        assertThat(verbose.json.get("messages").toString()).contains("READER_FIELD_MISSING_DEFAULT_VALUE");
        assertThat(post("/compatibility/subjects/orders-value/versions", schemaBody(A_B_DEFAULT)).json)
                .isEqualTo(JSON.readTree("{\"is_compatible\":true}"));
        expectError(post("/compatibility/subjects/nope/versions/latest", schemaBody(A)), 404, 40401);

        Answer refused = post("/subjects/orders-value/versions", schemaBody(A_B_REQUIRED));
        expectError(refused, 409, 409);
        assertThat(refused.json.get("message").asText()).contains("BACKWARD").contains("b");
        assertThat(get("/subjects/orders-value/versions").json).isEqualTo(JSON.readTree("[1]"));
    }

    /**
     * Each row: the subject's level, the versions registered before (";"-separated), the candidate,
     * and whether the registry must accept it.
     */
    @ParameterizedTest(name = "{0}: {1} then {2} -> {3}")
    @CsvSource({
            "BACKWARD,            a,              a+b,   false",
            "BACKWARD,            a,              a+b=1, true",
            "BACKWARD,            a,              none,  true",
            "FORWARD,             a,              a+b,   true",
            "FORWARD,             a,              none,  false",
            "FULL,                a,              a+b,   false",
            "FULL,                a,              none,  false",
            "FULL,                a,              a+b=1, true",
            "NONE,                a,              a+b,   true",
            "BACKWARD,            a;a+b=1,        a+b,   true",
            "BACKWARD_TRANSITIVE, a;a+b=1,        a+b,   false",
            "FORWARD_TRANSITIVE,  a+b;a+b=1,      a,     false",
            "FORWARD,             a+b;a+b=1,      a,     true",
            "FULL_TRANSITIVE,     a;a+b=1,        a+b,   false",
    })
    void compatibilityLevelsDecideLikeConfluentDocumentsThem(String level, String history, String candidate,
            boolean accepted) throws Exception {
        // FORWARD rows register their history under NONE first, as the history itself may not be FORWARD-clean
        put("/config/s", "{\"compatibility\": \"NONE\"}");
        for (String version : history.split(";")) {
            assertThat(post("/subjects/s/versions", schemaBody(named(version))).status).isEqualTo(200);
        }
        assertThat(put("/config/s", "{\"compatibility\": \"" + level + "\"}").json)
                .isEqualTo(JSON.readTree("{\"compatibility\":\"" + level + "\"}"));

        Answer answer = post("/subjects/s/versions", schemaBody(named(candidate)));

        assertThat(answer.status).as(answer.json.toString()).isEqualTo(accepted ? 200 : 409);
    }

    @Test
    void compatibilityConfigGlobalAndPerSubject() throws Exception {
        assertThat(get("/config").json).isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"BACKWARD\"}"));
        expectError(get("/config/orders-value"), 404, 40408);
        assertThat(get("/config/orders-value?defaultToGlobal=true").json)
                .isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"BACKWARD\"}"));

        assertThat(put("/config/orders-value", "{\"compatibility\": \"full\"}").json)
                .isEqualTo(JSON.readTree("{\"compatibility\":\"FULL\"}"));
        assertThat(put("/config", "{\"compatibility\": \"NONE\"}").json)
                .isEqualTo(JSON.readTree("{\"compatibility\":\"NONE\"}"));

        assertThat(get("/config/orders-value").json).isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"FULL\"}"));
        assertThat(get("/config").json).isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"NONE\"}"));
        assertThat(request("DELETE", "/config/orders-value", null, V1).json)
                .isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"FULL\"}"));
        assertThat(get("/config/orders-value?defaultToGlobal=true").json)
                .isEqualTo(JSON.readTree("{\"compatibilityLevel\":\"NONE\"}"));
    }

    @Test
    void deletingASubjectKeepsItsIdsReadable() throws Exception {
        post("/subjects/orders-value/versions", schemaBody(A));
        post("/subjects/orders-value/versions", schemaBody(A_B_DEFAULT));

        assertThat(request("DELETE", "/subjects/orders-value", null, V1).json).isEqualTo(JSON.readTree("[1,2]"));

        expectError(get("/subjects/orders-value/versions"), 404, 40401);
        assertThat(get("/subjects").json).isEmpty();
        assertThat(get("/schemas/ids/2").status).isEqualTo(200);
        // registering again starts the subject anew but keeps the schema's id
        assertThat(post("/subjects/orders-value/versions", schemaBody(A_B_REQUIRED)).json.get("id").asInt()).isEqualTo(3);
        assertThat(get("/subjects/orders-value/versions").json).isEqualTo(JSON.readTree("[1]"));
    }

    @Test
    void contentTypes() throws Exception {
        Answer plain = request("POST", "/subjects/x-value/versions", schemaBody(A), "application/json");
        assertThat(plain.status).isEqualTo(200);
        Answer negotiated = requestAccepting("GET", "/schemas/ids/1", "application/json");
        assertThat(negotiated.contentType).isEqualTo("application/json");

        Answer form = request("POST", "/subjects/x-value/versions", schemaBody(A), "application/x-www-form-urlencoded");
        expectError(form, 415, 415);
    }

    @Test
    void subjectNamesAreDecodedFromThePath() throws Exception {
        String subject = "weird subject/with+chars-value";
        try (SchemaRegistryClient client = new SchemaRegistryClient(server.url())) {
            int id = client.register(subject, new Schema.Parser().parse(A));
            assertThat(client.subjects()).containsExactly(subject);
            assertThat(new SchemaRegistryClient(server.url()).lookup(subject, new Schema.Parser().parse(A))).contains(id);
        }
    }

    @Test
    void concurrentRegistrationsGetDistinctStableIds() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (SchemaRegistryClient client = new SchemaRegistryClient(server.url())) {
            List<Future<Integer>> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Schema schema = Schema.createFixed("F" + (i % 20), null, "x", 1);
                int subject = i;
                ids.add(pool.submit(() -> client.register("s" + subject, schema)));
            }
            Set<Integer> distinct = ConcurrentHashMap.newKeySet();
            for (Future<Integer> id : ids) {
                distinct.add(id.get(30, TimeUnit.SECONDS));
            }
            // 20 distinct schemas, each registered in two subjects
            assertThat(distinct).hasSize(20);
            assertThat(distinct).allSatisfy(id -> assertThat(id).isBetween(1, 20));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void persistsAcrossRestarts(@TempDir Path dir) throws Exception {
        server.close();
        server = start(dir);
        post("/subjects/orders-value/versions", schemaBody(A));
        post("/subjects/orders-value/versions", schemaBody(A_B_DEFAULT));
        post("/subjects/keys-key/versions", schemaBody(EMPTY));
        put("/config/orders-value", "{\"compatibility\": \"FULL\"}");
        put("/config", "{\"compatibility\": \"FORWARD\"}");
        JsonNode subjectsBefore = get("/subjects").json;
        JsonNode latestBefore = get("/subjects/orders-value/versions/latest").json;
        JsonNode schema3Before = get("/schemas/ids/3").json;
        server.close();

        server = start(dir);

        assertThat(get("/subjects").json).isEqualTo(subjectsBefore);
        assertThat(get("/subjects/orders-value/versions/latest").json).isEqualTo(latestBefore);
        assertThat(get("/schemas/ids/3").json).isEqualTo(schema3Before);
        assertThat(get("/config/orders-value").json.get("compatibilityLevel").asText()).isEqualTo("FULL");
        assertThat(get("/config").json.get("compatibilityLevel").asText()).isEqualTo("FORWARD");
        assertThat(post("/subjects/again-value/versions", schemaBody(A)).json.get("id").asInt()).as("same id").isEqualTo(1);
        assertThat(post("/subjects/new-value/versions", schemaBody(A_B_REQUIRED)).json.get("id").asInt())
                .as("ids are never handed out twice").isEqualTo(4);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temp files left behind").containsExactlyInAnyOrder("registry.json", "registry.lock");
        }
    }

    @Test
    void aFailedWriteLeavesNoTrace(@TempDir Path dir) throws Exception {
        Path storage = dir.resolve("store");
        server.close();
        server = start(storage);
        post("/subjects/orders-value/versions", schemaBody(A));
        try (Stream<Path> files = Files.list(storage)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(storage);

        Answer failed = post("/subjects/new-value/versions", schemaBody(A_B_DEFAULT));

        expectError(failed, 500, 50001);
        assertThat(get("/subjects").json).isEqualTo(JSON.readTree("[\"orders-value\"]"));
        Files.createDirectories(storage);
        assertThat(post("/subjects/new-value/versions", schemaBody(A_B_DEFAULT)).json.get("id").asInt())
                .as("the failed attempt used up no id").isEqualTo(2);
    }

    @Test
    void aStorageDirectoryServesOneRegistryAtATime(@TempDir Path dir) throws Exception {
        try (RegistryServer first = start(dir)) {
            assertThatThrownBy(() -> start(dir)).isInstanceOf(IOException.class).hasMessageContaining("in use");
            assertThat(first.requestCount()).isZero();
        }
        start(dir).close();
    }

    @Test
    void aCorruptStorageFileIsRefusedNotReset(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("registry.json"), "{\"format\": 1, \"schemas\": {\"1\": \"{broken\"}}");

        assertThatThrownBy(() -> start(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("registry.json").hasMessageContaining("schema 1 is invalid");
        assertThat(Files.readString(dir.resolve("registry.json"))).contains("{broken");
        start(dir.resolve("elsewhere")).close();
    }

    // --- helpers ------------------------------------------------------------------------------

    /** A record "R" from "name:type" or "name:type=default" fields ("none" = no fields). */
    private static String record(String... fields) {
        StringBuilder json = new StringBuilder("{\"type\":\"record\",\"name\":\"R\",\"fields\":[");
        for (int i = 0; i < fields.length; i++) {
            String[] nameType = fields[i].split(":");
            String[] typeDefault = nameType[1].split("=");
            json.append(i == 0 ? "" : ",").append("{\"name\":\"").append(nameType[0]).append("\",\"type\":\"")
                    .append(typeDefault[0]).append('"');
            if (typeDefault.length > 1) {
                json.append(",\"default\":").append(typeDefault[1]);
            }
            json.append('}');
        }
        return json.append("]}").toString();
    }

    /** "a", "a+b", "a+b=1", "none": the shapes the level table uses. */
    private static String named(String shape) {
        return switch (shape.trim()) {
            case "a" -> A;
            case "a+b" -> A_B_REQUIRED;
            case "a+b=1" -> A_B_DEFAULT;
            case "none" -> EMPTY;
            default -> throw new IllegalArgumentException(shape);
        };
    }

    private static String schemaBody(String schema) throws IOException {
        return JSON.createObjectNode().put("schema", schema).toString();
    }

    private static RegistryServer start(Path dir) throws IOException {
        return RegistryServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), dir);
    }

    private static void expectError(Answer answer, int status, int errorCode) {
        assertThat(answer.status).as(answer.json == null ? "no JSON" : answer.json.toString()).isEqualTo(status);
        assertThat(answer.json.get("error_code").asInt()).isEqualTo(errorCode);
        assertThat(answer.json.get("message").asText()).isNotBlank();
        assertThat(answer.json.size()).as("only error_code and message").isEqualTo(2);
    }

    private record Answer(int status, String contentType, JsonNode json) {
    }

    private Answer get(String path) throws Exception {
        return request("GET", path, null, V1);
    }

    private Answer post(String path, String body) throws Exception {
        return request("POST", path, body, V1);
    }

    private Answer put(String path, String body) throws Exception {
        return request("PUT", path, body, V1);
    }

    private Answer requestAccepting(String method, String path, String accept) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(server.url() + path)).header("Accept", accept)
                .method(method, HttpRequest.BodyPublishers.noBody()));
    }

    private Answer request(String method, String path, String body, String contentType) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + path));
        if (body != null) {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return send(request);
    }

    private static Answer send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json;
        try {
            json = JSON.readTree(response.body());
        } catch (IOException e) {
            json = null;
        }
        return new Answer(response.statusCode(), response.headers().firstValue("Content-Type").orElse(null), json);
    }
}
