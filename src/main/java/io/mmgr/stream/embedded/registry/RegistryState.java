package io.mmgr.stream.embedded.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;

/**
 * Subjects, versions and globally numbered schemas of {@link RegistryServer}, optionally persisted
 * to one JSON file that is rewritten atomically after every change (so ids survive restarts).
 * All methods are synchronized: registrations are rare, correctness is what matters. Public for the topology
 * tests' in-memory registry, which is this state without the HTTP layer.
 */
public final class RegistryState implements AutoCloseable {

    static final String FILE_NAME = "registry.json";
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One version of a subject. */
    public record Version(String subject, int version, int id, String schema) {
    }

    /** Result of a registration. */
    public record Registered(int id, boolean created) {
    }

    private final Path file;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private final Map<Integer, Schema> schemaById = new HashMap<>();
    private final Map<String, Integer> idByCanonical = new HashMap<>();
    private final SortedMap<String, SortedMap<Integer, Integer>> subjects = new TreeMap<>();
    private final Map<String, CompatibilityLevel> subjectLevels = new TreeMap<>();
    private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    private int nextId = 1;
    private ObjectNode persisted;

    private RegistryState(Path file, FileChannel lockChannel, FileLock lock) {
        this.file = file;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    public static RegistryState inMemory() {
        RegistryState state = new RegistryState(null, null, null);
        state.persisted = state.snapshot();
        return state;
    }

    /** Opens (or creates) the store in {@code dir}; refuses a directory another registry holds. */
    static RegistryState open(Path dir) throws IOException {
        Files.createDirectories(dir);
        FileChannel channel = FileChannel.open(dir.resolve("registry.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("schema registry storage " + dir + " is in use by another registry");
        }
        RegistryState state = new RegistryState(dir.resolve(FILE_NAME), channel, lock);
        try {
            if (Files.exists(state.file)) {
                state.load(Files.readString(state.file));
            }
            state.persisted = state.snapshot();
        } catch (IOException | RuntimeException e) {
            state.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        return state;
    }

    public synchronized Registered register(String subject, Schema schema) {
        String canonical = schema.toString();
        Integer known = idByCanonical.get(canonical);
        SortedMap<Integer, Integer> versions = subjects.get(subject);
        if (known != null && versions != null && versions.containsValue(known)) {
            return new Registered(known, false);
        }
        CompatibilityLevel level = levelOf(subject);
        if (versions != null) {
            SortedMap<Integer, Schema> earlier = new TreeMap<>();
            versions.forEach((v, id) -> earlier.put(v, schemaById.get(id)));
            List<String> problems = level.problems(schema, earlier);
            if (!problems.isEmpty()) {
                throw new ApiError(409, ApiError.INCOMPATIBLE_SCHEMA, "Schema is incompatible with subject '"
                        + subject + "' under " + level + " compatibility: " + String.join("; ", problems));
            }
        }
        int id = known != null ? known : nextId++;
        if (known == null) {
            schemaById.put(id, schema);
            idByCanonical.put(canonical, id);
        }
        SortedMap<Integer, Integer> target = subjects.computeIfAbsent(subject, s -> new TreeMap<>());
        target.put(target.isEmpty() ? 1 : target.lastKey() + 1, id);
        persist();
        return new Registered(id, true);
    }

    public synchronized Optional<Schema> schema(int id) {
        return Optional.ofNullable(schemaById.get(id));
    }

    synchronized List<String> subjects() {
        return new ArrayList<>(subjects.keySet());
    }

    synchronized List<Integer> versions(String subject) {
        return new ArrayList<>(versionsOf(subject).keySet());
    }

    /** {@code version} -1 means the latest. */
    synchronized Version version(String subject, int version) {
        SortedMap<Integer, Integer> versions = versionsOf(subject);
        int v = version == -1 ? versions.lastKey() : version;
        Integer id = versions.get(v);
        if (id == null) {
            throw ApiError.versionNotFound(subject, version);
        }
        return new Version(subject, v, id, schemaById.get(id).toString());
    }

    public synchronized Version lookup(String subject, Schema schema) {
        SortedMap<Integer, Integer> versions = versionsOf(subject);
        Integer id = idByCanonical.get(schema.toString());
        if (id != null) {
            for (Map.Entry<Integer, Integer> e : versions.entrySet()) {
                if (e.getValue().equals(id)) {
                    return new Version(subject, e.getKey(), id, schemaById.get(id).toString());
                }
            }
        }
        throw ApiError.schemaNotFound("Schema not found under subject '" + subject + "'.");
    }

    /**
     * Problems registering {@code schema} would meet: against one version ({@code version} -1 =
     * latest) or, with {@code version} null, against what the subject's level prescribes.
     */
    synchronized List<String> compatibilityProblems(String subject, Integer version, Schema schema) {
        CompatibilityLevel level = levelOf(subject);
        SortedMap<Integer, Schema> earlier = new TreeMap<>();
        if (version == null) {
            SortedMap<Integer, Integer> versions = subjects.get(subject);
            if (versions != null) {
                versions.forEach((v, id) -> earlier.put(v, schemaById.get(id)));
            }
        } else {
            Version target = version(subject, version);
            earlier.put(target.version(), schemaById.get(target.id()));
        }
        return level.problems(schema, earlier);
    }

    synchronized List<Integer> deleteSubject(String subject) {
        List<Integer> versions = versions(subject);
        subjects.remove(subject);
        // ids stay resolvable: records already written with them must remain readable
        persist();
        return versions;
    }

    synchronized CompatibilityLevel globalLevel() {
        return globalLevel;
    }

    public synchronized void globalLevel(CompatibilityLevel level) {
        globalLevel = level;
        persist();
    }

    synchronized Optional<CompatibilityLevel> subjectLevel(String subject) {
        return Optional.ofNullable(subjectLevels.get(subject));
    }

    synchronized void subjectLevel(String subject, CompatibilityLevel level) {
        if (level == null) {
            subjectLevels.remove(subject);
        } else {
            subjectLevels.put(subject, level);
        }
        persist();
    }

    private CompatibilityLevel levelOf(String subject) {
        return subjectLevels.getOrDefault(subject, globalLevel);
    }

    private SortedMap<Integer, Integer> versionsOf(String subject) {
        SortedMap<Integer, Integer> versions = subjects.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw ApiError.subjectNotFound(subject);
        }
        return versions;
    }

    /** Writes the whole state (temp file, then an atomic rename); on failure restores the last good one. */
    private void persist() {
        ObjectNode next = snapshot();
        if (file == null) {
            persisted = next;
            return;
        }
        try {
            Path tmp = Files.createTempFile(file.getParent(), FILE_NAME, ".tmp");
            try {
                try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                    out.write(java.nio.ByteBuffer.wrap(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(next)));
                    out.force(true);
                }
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            persisted = next;
        } catch (IOException e) {
            restore(persisted);
            throw new ApiError(500, ApiError.STORE_ERROR, "Cannot store the registry state in "
                    + file + ": " + e.getMessage());
        }
    }

    private ObjectNode snapshot() {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("nextId", nextId);
        root.put("compatibility", globalLevel.name());
        ObjectNode schemas = root.putObject("schemas");
        new TreeMap<>(schemaById).forEach((id, s) -> schemas.put(String.valueOf(id), s.toString()));
        ObjectNode subjectsNode = root.putObject("subjects");
        subjects.forEach((subject, versions) -> {
            ArrayNode list = subjectsNode.putArray(subject);
            versions.forEach((v, id) -> list.addObject().put("version", v).put("id", id));
        });
        ObjectNode levels = root.putObject("subjectCompatibility");
        subjectLevels.forEach((subject, level) -> levels.put(subject, level.name()));
        return root;
    }

    private void restore(ObjectNode snapshot) {
        try {
            load(JSON.writeValueAsString(snapshot));
        } catch (IOException e) {
            throw new IllegalStateException("cannot restore registry state", e);
        }
    }

    private void load(String text) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (IOException e) {
            throw new IOException("schema registry storage " + file + " is not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || root.path("format").asInt() != FORMAT) {
            throw new IOException("schema registry storage " + file + " has an unknown format");
        }
        schemaById.clear();
        idByCanonical.clear();
        subjects.clear();
        subjectLevels.clear();
        int maxId = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("schemas").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int id = Integer.parseInt(e.getKey());
            Schema schema;
            try {
                schema = new Schema.Parser().parse(e.getValue().asText());
            } catch (SchemaParseException ex) {
                throw new IOException("schema registry storage " + file + ": schema " + id + " is invalid: "
                        + ex.getMessage(), ex);
            }
            schemaById.put(id, schema);
            idByCanonical.put(schema.toString(), id);
            maxId = Math.max(maxId, id);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("subjects").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            SortedMap<Integer, Integer> versions = new TreeMap<>();
            for (JsonNode v : e.getValue()) {
                int id = v.path("id").asInt();
                if (!schemaById.containsKey(id)) {
                    throw new IOException("schema registry storage " + file + ": subject '" + e.getKey()
                            + "' refers to missing schema id " + id);
                }
                versions.put(v.path("version").asInt(), id);
            }
            subjects.put(e.getKey(), versions);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("subjectCompatibility").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            subjectLevels.put(e.getKey(), level(e.getValue().asText()));
        }
        globalLevel = level(root.path("compatibility").asText());
        // never hand out an id twice, even if the file's counter were behind
        nextId = Math.max(root.path("nextId").asInt(1), maxId + 1);
    }

    private CompatibilityLevel level(String text) throws IOException {
        Optional<CompatibilityLevel> level = CompatibilityLevel.parse(text);
        if (level.isEmpty()) {
            throw new IOException("schema registry storage " + file + ": unknown compatibility level '" + text + "'");
        }
        return level.get();
    }

    @Override
    public synchronized void close() {
        try {
            if (lock != null) {
                lock.release();
            }
            if (lockChannel != null) {
                lockChannel.close();
            }
        } catch (IOException e) {
            // the lock dies with the channel or the process anyway
        }
    }
}
