package io.mmgr.stream.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Client for the Confluent Schema Registry REST API. Works against any Confluent-compatible
 * registry: Confluent's, Apicurio's {@code /apis/ccompat/v7}, our embedded stack's {@code RegistryServer}.
 *
 * <p>Thread-safe. Ids are cached in both directions (subject+schema to id, id to schema): a schema
 * id never changes meaning, so the caches need no expiry. Unknown ids are remembered briefly so a
 * stream of bad records does not turn into one HTTP call per record.
 *
 * <p>Config keys (all optional): {@code basic.auth.user.info} ("user:pass"; credentials in the URL's
 * user-info work too), {@code request.timeout.ms} (default 30000), {@code connect.timeout.ms}
 * (default 10000). The {@code schema.registry.} prefixed spellings Confluent's serdes use are
 * accepted as well. TLS uses the JVM's default SSLContext.
 */
public final class SchemaRegistryClient implements SchemaRegistry {

    /** Content type of the registry API (Confluent documents it as the preferred request type). */
    static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT =
            "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; qs=0.9, application/json; qs=0.5";
    private static final long UNKNOWN_ID_TTL_NANOS = Duration.ofSeconds(30).toNanos();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Requests {@link #prefetch} keeps in flight: a registry shared by many scorers is not flooded by one start. */
    private static final int PREFETCH_IN_FLIGHT = 8;

    /** Properties given beside Kafka's ({@code -P}, the streams config) that configure this client, prefix removed. */
    public static final String PROPERTY_PREFIX = "mmgr.schema-registry.";

    /** This client's config out of properties given beside Kafka's: the {@link #PROPERTY_PREFIX} keys, prefix removed. */
    public static Map<String, Object> configFrom(Map<String, ?> properties) {
        Map<String, Object> out = new java.util.HashMap<>();
        properties.forEach((k, v) -> {
            if (k.startsWith(PROPERTY_PREFIX)) {
                out.put(k.substring(PROPERTY_PREFIX.length()), v);
            }
        });
        return out;
    }

    private final String baseUrl;
    private final String authorization;
    private final Duration requestTimeout;
    private final HttpClient http;

    private final Map<String, Map<Schema, Integer>> idsBySubject = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<Integer, Long> unknownIdsUntil = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public SchemaRegistryClient(String baseUrl) {
        this(baseUrl, Map.of());
    }

    public SchemaRegistryClient(String baseUrl, Map<String, ?> config) {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("schema registry URL is empty");
        }
        URI uri;
        try {
            uri = new URI(baseUrl.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("schema registry URL is not a valid URL", e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if ((!scheme.equals("http") && !scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("schema registry URL must be http(s)://host[:port][/path], got scheme '"
                    + scheme + "'");
        }
        String userInfo = string(config, "basic.auth.user.info");
        if (userInfo == null && uri.getRawUserInfo() != null) {
            userInfo = java.net.URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8);
        }
        // the URL kept (and shown in messages) never carries the credentials
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
        this.baseUrl = scheme + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "") + path;
        this.authorization = userInfo == null ? null
                : "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        this.requestTimeout = Duration.ofMillis(number(config, "request.timeout.ms", 30_000));
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(number(config, "connect.timeout.ms", 10_000)))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The registry's base URL, without credentials. */
    @Override
    public String baseUrl() {
        return baseUrl;
    }

    /**
     * Registers {@code schema} under {@code subject} (POST /subjects/{subject}/versions) and returns
     * its global id. Registering an already registered schema returns the same id.
     *
     * @throws RegistryException e.g. status 409 when the registry finds it incompatible, 422 when invalid
     */
    @Override
    public int register(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return cached;
        }
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", body);
        int id = requireInt(answer, "id", "register");
        remember(subject, schema, id);
        return id;
    }

    /** The schema with this global id (GET /schemas/ids/{id}); cached forever once fetched. */
    @Override
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        Long until = unknownIdsUntil.get(id);
        if (until != null && System.nanoTime() - until < 0) {
            throw new RegistryException(404, 40403, null, "unknown schema id " + id + " at " + baseUrl);
        }
        JsonNode answer;
        try {
            answer = send("GET", "/schemas/ids/" + id, null);
        } catch (RegistryException e) {
            if (e.isNotFound()) {
                unknownIdsUntil.put(id, System.nanoTime() + UNKNOWN_ID_TTL_NANOS);
            }
            throw e;
        }
        Schema schema = avroSchema(answer, "schema id " + id, "GET /schemas/ids/" + id);
        Schema raced = schemasById.putIfAbsent(id, schema);
        return raced == null ? schema : raced;
    }

    /** The id of {@code schema} if it is registered under {@code subject} (POST /subjects/{subject}). */
    @Override
    public Optional<Integer> lookup(String subject, Schema schema) {
        Integer cached = cachedId(subject, schema);
        if (cached != null) {
            return Optional.of(cached);
        }
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        JsonNode answer;
        try {
            answer = send("POST", "/subjects/" + encode(subject), body);
        } catch (RegistryException e) {
            // 40401 no such subject, 40403 not under this subject: both mean "not registered"
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
        int id = requireInt(answer, "id", "lookup");
        remember(subject, schema, id);
        return Optional.of(id);
    }

    /**
     * Caches the latest version of every subject {@code wanted} accepts (GET /subjects, then GET
     * /subjects/{subject}/versions/latest, a few at a time), so that serdes of a process joining a running
     * deployment find their ids without a request: their first record per topic would otherwise wait on the
     * registry on a stream thread. Best effort within {@code budget}: a subject not cached by then, a latest
     * version that is not the serde's schema, or a registry that fails leaves that subject to be resolved on first
     * use, as without it.
     *
     * @return how many subjects' latest versions are now cached
     */
    public int prefetch(Predicate<String> wanted, Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        List<String> subjects;
        try {
            subjects = subjects(budget).stream().filter(wanted).toList();
        } catch (RuntimeException e) {
            return 0;
        }
        Semaphore slots = new Semaphore(PREFETCH_IN_FLIGHT);
        AtomicInteger cached = new AtomicInteger();
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        try {
            for (String subject : subjects) {
                Duration left = Duration.ofNanos(deadline - System.nanoTime());
                if (left.isNegative() || !slots.tryAcquire(left.toNanos(), TimeUnit.NANOSECONDS)) {
                    break;
                }
                String what = "GET /subjects/" + subject + "/versions/latest";
                calls.add(http.sendAsync(request("GET", "/subjects/" + encode(subject) + "/versions/latest", null,
                                Duration.ofNanos(Math.max(1, deadline - System.nanoTime()))).build(),
                                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                        .thenAccept(r -> {
                            JsonNode latest = answer(what, r);
                            remember(subject, avroSchema(latest, "the latest of " + subject, what),
                                    requireInt(latest, "id", what));
                            cached.incrementAndGet();
                        })
                        .whenComplete((ok, failed) -> slots.release()));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // a subject that failed or was late is resolved on first use
        }
        return cached.get();
    }

    /** All subjects (GET /subjects). */
    public List<String> subjects() {
        return subjects(requestTimeout);
    }

    private List<String> subjects(Duration timeout) {
        JsonNode answer = send("GET", "/subjects", null, timeout);
        List<String> subjects = new ArrayList<>();
        answer.forEach(n -> subjects.add(n.asText()));
        return subjects;
    }

    /**
     * Whether {@code schema} could be registered as the next version of {@code subject} under the
     * subject's compatibility level, checked against its latest version
     * (POST /compatibility/subjects/{subject}/versions/latest). True for a subject that does not
     * exist yet: there is nothing to be incompatible with.
     */
    public boolean isCompatible(String subject, Schema schema) {
        ObjectNode body = JSON.createObjectNode().put("schema", schema.toString());
        try {
            JsonNode answer = send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest", body);
            return answer.path("is_compatible").asBoolean(false);
        } catch (RegistryException e) {
            if (e.errorCode() == 40401) {
                return true;
            }
            throw e;
        }
    }

    /**
     * Sets the compatibility level of one subject (PUT /config/{subject}), or the global default when
     * {@code subject} is null. Levels: NONE, BACKWARD, BACKWARD_TRANSITIVE, FORWARD,
     * FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE.
     */
    public void updateCompatibility(String subject, String level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level);
        send("PUT", subject == null ? "/config" : "/config/" + encode(subject), body);
    }

    /** Deletes a subject (DELETE /subjects/{subject}); returns the versions it had. */
    public List<Integer> deleteSubject(String subject) {
        JsonNode answer = send("DELETE", "/subjects/" + encode(subject), null);
        idsBySubject.remove(subject);
        List<Integer> versions = new ArrayList<>();
        answer.forEach(n -> versions.add(n.asInt()));
        return versions;
    }

    /** Drops the caches; later calls fail. The JDK HTTP client frees its threads when unreachable. */
    @Override
    public void close() {
        closed = true;
        idsBySubject.clear();
        schemasById.clear();
        unknownIdsUntil.clear();
    }

    @Override
    public String toString() {
        return "SchemaRegistryClient[" + baseUrl + "]";
    }

    private Integer cachedId(String subject, Schema schema) {
        Map<Schema, Integer> ids = idsBySubject.get(subject);
        return ids == null ? null : ids.get(schema);
    }

    private void remember(String subject, Schema schema, int id) {
        idsBySubject.computeIfAbsent(subject, s -> new ConcurrentHashMap<>()).put(schema, id);
        schemasById.putIfAbsent(id, schema);
        unknownIdsUntil.remove(id);
    }

    private JsonNode send(String method, String path, JsonNode body) {
        return send(method, path, body, requestTimeout);
    }

    private JsonNode send(String method, String path, JsonNode body, Duration timeout) {
        String what = method + " " + path;
        HttpResponse<String> response;
        try {
            response = http.send(request(method, path, body, timeout).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new RegistryException("schema registry at " + baseUrl + " unreachable (" + what + "): "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryException("interrupted while calling the schema registry at " + baseUrl, e);
        }
        return answer(what, response);
    }

    private HttpRequest.Builder request(String method, String path, JsonNode body, Duration timeout) {
        if (closed) {
            throw new IllegalStateException("schema registry client for " + baseUrl + " is closed");
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("Accept", ACCEPT);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (body != null) {
            request.header("Content-Type", CONTENT_TYPE)
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return request;
    }

    /** The JSON of a 2xx answer; a RegistryException with the registry's code and message otherwise. */
    private JsonNode answer(String what, HttpResponse<String> response) {
        JsonNode json = parse(response.body());
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            if (json == null) {
                throw new RegistryException(status, -1, null, "schema registry at " + baseUrl
                        + " answered " + what + " with a body that is not JSON");
            }
            return json;
        }
        int errorCode = json == null ? -1 : json.path("error_code").asInt(-1);
        String message = json == null ? abbreviate(response.body()) : json.path("message").asText("");
        throw new RegistryException(status, errorCode, message, "schema registry at " + baseUrl + " refused "
                + what + ": HTTP " + status + (errorCode >= 0 ? ", error_code " + errorCode : "")
                + (message.isEmpty() ? "" : ": " + message));
    }

    private int requireInt(JsonNode answer, String field, String operation) {
        JsonNode value = answer.get(field);
        if (value == null || !value.canConvertToInt()) {
            throw new RegistryException(200, -1, null, "schema registry at " + baseUrl + " answered "
                    + operation + " without an integer '" + field + "'");
        }
        return value.asInt();
    }

    /** The Avro schema in an answer's "schema" field (GET /schemas/ids/{id}, GET .../versions/{version}). */
    private Schema avroSchema(JsonNode answer, String which, String what) {
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new RegistryException(200, -1, null, which + " at " + baseUrl + " is a " + type + " schema, not Avro");
        }
        String text = answer.path("schema").asText(null);
        if (text == null) {
            throw new RegistryException(200, -1, null, "schema registry at " + baseUrl + " answered " + what
                    + " without a schema");
        }
        try {
            return new Schema.Parser().parse(text);
        } catch (SchemaParseException e) {
            throw new RegistryException(200, -1, null, which + " at " + baseUrl + " is not a valid Avro schema: "
                    + e.getMessage());
        }
    }

    /** Whether the id of {@code schema} under {@code subject} is cached: no request would be made for it. */
    boolean knows(String subject, Schema schema) {
        return cachedId(subject, schema) != null;
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String abbreviate(String body) {
        if (body == null) {
            return "";
        }
        String flat = body.replaceAll("\\s+", " ").trim();
        return flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
    }

    static String encode(String segment) {
        if (segment == null || segment.isEmpty()) {
            throw new IllegalArgumentException("subject is empty");
        }
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String string(Map<String, ?> config, String key) {
        Object value = config.get(key);
        if (value == null) {
            value = config.get("schema.registry." + key);
        }
        return value == null ? null : value.toString();
    }

    private static long number(Map<String, ?> config, String key, long fallback) {
        String value = string(config, key);
        if (value == null) {
            return fallback;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a positive number of milliseconds, got '" + value + "'");
        }
    }
}
