package io.mmgr.stream.embedded.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small schema registry speaking the Confluent Schema Registry REST API (Avro only), for the
 * embedded default mode. Ids are global and content-addressed like Confluent's: the same schema
 * gets the same id in every subject. Compatibility defaults to BACKWARD.
 *
 * <p>Paths, bodies and error codes follow Confluent's "Schema Registry API Reference"
 * (docs.confluent.io/platform/current/schema-registry/develop/api.html): POST/GET
 * /subjects/{s}/versions, GET /subjects/{s}/versions/{v|latest}[/schema], POST and DELETE
 * /subjects/{s}, GET /subjects, GET /schemas/ids/{id}[/schema], POST
 * /compatibility/subjects/{s}/versions[/{v|latest}], GET/PUT /config, GET/PUT/DELETE
 * /config/{s}. Schema references and non-Avro schema types are refused with 422.
 */
public final class RegistryServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String V1_JSON = "application/vnd.schemaregistry.v1+json";
    /** Request types Confluent's resources consume. */
    private static final Set<String> REQUEST_TYPES = Set.of(V1_JSON, "application/vnd.schemaregistry+json",
            "application/json", "application/octet-stream");
    private static final int MAX_BODY = 8 << 20;

    private final HttpServer http;
    private final ThreadPoolExecutor executor;
    private final RegistryState state;
    private final String url;
    private final AtomicLong requests = new AtomicLong();

    private RegistryServer(HttpServer http, ThreadPoolExecutor executor, RegistryState state) {
        this.http = http;
        this.executor = executor;
        this.state = state;
        InetSocketAddress bound = http.getAddress();
        InetAddress address = bound.getAddress();
        String host = address.isAnyLocalAddress() ? "127.0.0.1"
                : address instanceof java.net.Inet6Address ? "[" + address.getHostAddress() + "]" : address.getHostAddress();
        this.url = "http://" + host + ":" + bound.getPort();
    }

    /**
     * Starts a registry on {@code bind} (port 0 picks a free one). With a {@code storageDir} the
     * state is kept in {@code storageDir/registry.json} and reloaded on the next start; null keeps
     * it in memory.
     */
    public static RegistryServer start(InetSocketAddress bind, Path storageDir) throws IOException {
        // the JDK server writes headers and body separately; with Nagle on, every answer waits for the
        // client's delayed ACK (~40 ms). Read once, when the first HttpServer of the JVM is created.
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        RegistryState state = storageDir == null ? RegistryState.inMemory() : RegistryState.open(storageDir);
        HttpServer http;
        try {
            http = HttpServer.create(bind, 64);
        } catch (IOException e) {
            state.close();
            throw new IOException("cannot start the schema registry on " + bind + ": " + e.getMessage(), e);
        }
        AtomicInteger threads = new AtomicInteger();
        // bounded: a flood of requests queues up to a limit, then runs on the accepting thread (back-pressure)
        ThreadPoolExecutor executor = new ThreadPoolExecutor(2, 4, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), r -> {
                    Thread t = new Thread(r, "schema-registry-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.CallerRunsPolicy());
        RegistryServer server = new RegistryServer(http, executor, state);
        http.setExecutor(executor);
        http.createContext("/", server::handle);
        http.start();
        LOG.info("schema registry listening on {}{}", server.url,
                storageDir == null ? " (in memory)" : " (storage " + storageDir + ")");
        return server;
    }

    /** Base URL, e.g. http://127.0.0.1:8081. */
    public String url() {
        return url;
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** HTTP requests served since start; lets tests prove that clients cache. */
    public long requestCount() {
        return requests.get();
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
        state.close();
    }

    private void handle(HttpExchange exchange) {
        requests.incrementAndGet();
        try {
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            try {
                Object answer = route(exchange);
                respond(exchange, 200, accept, answer);
            } catch (ApiError e) {
                respond(exchange, e.status, accept, error(e.errorCode, e.getMessage()));
            } catch (RuntimeException e) {
                LOG.error("schema registry request {} {} failed", exchange.getRequestMethod(),
                        exchange.getRequestURI(), e);
                respond(exchange, 500, accept, error(500, "Internal error: " + e));
            }
        } catch (IOException e) {
            LOG.debug("schema registry client went away", e);
        } finally {
            exchange.close();
        }
    }

    private Object route(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod().toUpperCase(Locale.ROOT);
        List<String> path = segments(exchange.getRequestURI().getRawPath());
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        int n = path.size();
        String head = n == 0 ? "" : path.get(0);
        switch (head) {
            case "":
                allow(method, "GET");
                return JSON.createObjectNode();
            case "subjects":
                if (n == 1) {
                    allow(method, "GET");
                    return JSON.valueToTree(state.subjects());
                }
                return subjects(method, path, exchange);
            case "schemas":
                if (n >= 3 && n <= 4 && path.get(1).equals("ids") && (n == 3 || path.get(3).equals("schema"))) {
                    allow(method, "GET");
                    Schema schema = state.schema(id(path.get(2)))
                            .orElseThrow(() -> ApiError.schemaNotFound("Schema " + path.get(2) + " not found"));
                    return n == 3 ? JSON.createObjectNode().put("schema", schema.toString()) : new RawJson(schema.toString());
                }
                throw notFound();
            case "compatibility":
                if ((n == 4 || n == 5) && path.get(1).equals("subjects") && path.get(3).equals("versions")) {
                    allow(method, "POST");
                    Schema schema = parseSchema(body(exchange));
                    Integer version = n == 5 ? version(path.get(4)) : null;
                    List<String> problems = state.compatibilityProblems(path.get(2), version, schema);
                    ObjectNode answer = JSON.createObjectNode().put("is_compatible", problems.isEmpty());
                    if ("true".equalsIgnoreCase(query.get("verbose"))) {
                        ArrayNode messages = answer.putArray("messages");
                        problems.forEach(messages::add);
                    }
                    return answer;
                }
                throw notFound();
            case "config":
                return config(method, path, query, exchange);
            default:
                throw notFound();
        }
    }

    private Object subjects(String method, List<String> path, HttpExchange exchange) throws IOException {
        String subject = path.get(1);
        int n = path.size();
        if (n == 2) {
            allow(method, "POST", "DELETE");
            if (method.equals("DELETE")) {
                return JSON.valueToTree(state.deleteSubject(subject));
            }
            RegistryState.Version found = state.lookup(subject, parseSchema(body(exchange)));
            return versionJson(found);
        }
        if (!path.get(2).equals("versions") || n > 5 || (n == 5 && !path.get(4).equals("schema"))) {
            throw notFound();
        }
        if (n == 3) {
            allow(method, "GET", "POST");
            if (method.equals("GET")) {
                return JSON.valueToTree(state.versions(subject));
            }
            RegistryState.Registered registered = state.register(subject, parseSchema(body(exchange)));
            if (registered.created()) {
                LOG.debug("schema registry: subject '{}' got schema id {}", subject, registered.id());
            }
            return JSON.createObjectNode().put("id", registered.id());
        }
        allow(method, "GET");
        RegistryState.Version version = state.version(subject, version(path.get(3)));
        return n == 4 ? versionJson(version) : new RawJson(version.schema());
    }

    private Object config(String method, List<String> path, Map<String, String> query, HttpExchange exchange)
            throws IOException {
        if (path.size() == 1) {
            allow(method, "GET", "PUT");
            if (method.equals("PUT")) {
                CompatibilityLevel level = level(body(exchange));
                state.globalLevel(level);
                return JSON.createObjectNode().put("compatibility", level.name());
            }
            return JSON.createObjectNode().put("compatibilityLevel", state.globalLevel().name());
        }
        if (path.size() != 2) {
            throw notFound();
        }
        String subject = path.get(1);
        allow(method, "GET", "PUT", "DELETE");
        switch (method) {
            case "PUT": {
                CompatibilityLevel level = level(body(exchange));
                state.subjectLevel(subject, level);
                return JSON.createObjectNode().put("compatibility", level.name());
            }
            case "DELETE": {
                CompatibilityLevel previous = subjectLevelOrFail(subject);
                state.subjectLevel(subject, null);
                return JSON.createObjectNode().put("compatibilityLevel", previous.name());
            }
            default: {
                boolean fallBack = "true".equalsIgnoreCase(query.get("defaultToGlobal"));
                CompatibilityLevel level = fallBack
                        ? state.subjectLevel(subject).orElse(state.globalLevel())
                        : subjectLevelOrFail(subject);
                return JSON.createObjectNode().put("compatibilityLevel", level.name());
            }
        }
    }

    private CompatibilityLevel subjectLevelOrFail(String subject) {
        return state.subjectLevel(subject).orElseThrow(() -> new ApiError(404,
                ApiError.SUBJECT_COMPATIBILITY_NOT_CONFIGURED,
                "Subject '" + subject + "' has no subject-level compatibility configured"));
    }

    private static ObjectNode versionJson(RegistryState.Version v) {
        return JSON.createObjectNode().put("subject", v.subject()).put("version", v.version()).put("id", v.id())
                .put("schema", v.schema());
    }

    private static CompatibilityLevel level(JsonNode body) {
        String text = body.path("compatibility").asText(null);
        return CompatibilityLevel.parse(text).orElseThrow(() -> new ApiError(422, ApiError.INVALID_COMPATIBILITY_LEVEL,
                "Invalid compatibility level '" + text + "'. Valid values are NONE, BACKWARD, BACKWARD_TRANSITIVE,"
                        + " FORWARD, FORWARD_TRANSITIVE, FULL and FULL_TRANSITIVE"));
    }

    /** The "schema" of a registration-style body, parsed; only Avro without references. */
    private static Schema parseSchema(JsonNode body) {
        String type = body.path("schemaType").asText("AVRO");
        if (!type.equalsIgnoreCase("AVRO")) {
            throw ApiError.invalidSchema("Schema type " + type + " is not supported: this registry serves AVRO schemas only");
        }
        JsonNode references = body.get("references");
        if (references != null && references.isArray() && !references.isEmpty()) {
            throw ApiError.invalidSchema("Schema references are not supported by this registry");
        }
        JsonNode text = body.get("schema");
        if (text == null || !text.isTextual() || text.asText().isBlank()) {
            throw ApiError.invalidSchema("The request has no \"schema\" string");
        }
        try {
            return new Schema.Parser().parse(text.asText());
        } catch (AvroRuntimeException e) {
            throw ApiError.invalidSchema("Invalid Avro schema: " + e.getMessage());
        }
    }

    private static JsonNode body(HttpExchange exchange) throws IOException {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type != null && !REQUEST_TYPES.contains(type.split(";")[0].trim().toLowerCase(Locale.ROOT))) {
            throw new ApiError(415, 415, "HTTP 415 Unsupported Media Type");
        }
        byte[] bytes;
        try (InputStream in = exchange.getRequestBody()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        }
        if (bytes.length > MAX_BODY) {
            throw new ApiError(413, 413, "Request body larger than " + MAX_BODY + " bytes");
        }
        JsonNode body;
        try {
            body = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new ApiError(400, 400, "Request body is not valid JSON: " + e.getMessage());
        }
        if (body == null || !body.isObject()) {
            throw new ApiError(400, 400, "Request body must be a JSON object");
        }
        return body;
    }

    private static int id(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw ApiError.schemaNotFound("Schema " + text + " not found");
        }
    }

    /** A version path segment: 1..2^31-1, or "latest" / -1 for the latest (returned as -1). */
    private static int version(String text) {
        if (text.equalsIgnoreCase("latest")) {
            return -1;
        }
        try {
            int v = Integer.parseInt(text);
            if (v >= 1 || v == -1) {
                return v;
            }
        } catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw new ApiError(422, ApiError.INVALID_VERSION, "The specified version '" + text
                + "' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"");
    }

    private static void allow(String method, String... allowed) {
        for (String a : allowed) {
            if (a.equals(method)) {
                return;
            }
        }
        throw new ApiError(405, 405, "HTTP 405 Method Not Allowed");
    }

    private static ApiError notFound() {
        return new ApiError(404, 404, "HTTP 404 Not Found");
    }

    private static ObjectNode error(int code, String message) {
        return JSON.createObjectNode().put("error_code", code).put("message", message);
    }

    private static List<String> segments(String rawPath) {
        List<String> segments = new ArrayList<>();
        for (String s : rawPath.split("/")) {
            if (!s.isEmpty()) {
                segments.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return segments;
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                query.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    /** A body that is already JSON text (the bare schema endpoints). */
    private record RawJson(String text) {
    }

    private static void respond(HttpExchange exchange, int status, String accept, Object answer) throws IOException {
        byte[] bytes = answer instanceof RawJson raw ? raw.text().getBytes(StandardCharsets.UTF_8)
                : JSON.writeValueAsBytes(answer);
        // Confluent prefers its vendor type; a client asking for plain JSON only gets plain JSON
        boolean plain = accept != null && !accept.contains("vnd.schemaregistry") && accept.contains("application/json");
        exchange.getResponseHeaders().set("Content-Type", plain ? "application/json" : V1_JSON);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
