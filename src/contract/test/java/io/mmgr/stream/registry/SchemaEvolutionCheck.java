package io.mmgr.stream.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.apache.avro.SchemaParser;

/**
 * The schema contract's evolution rule: every current {@code schemas/X.avsc}, as reader, reads
 * data written with every released {@code schemas/released/X.vN.avsc} (BACKWARD), and every
 * current schema has a released version.
 *
 * <p>Files refer to each other's types by name. A released file is parsed beside the current
 * files of all other types, so each comparison isolates one type's own change; the types it
 * refers to are compared in their own files. Avro resolves nested named types the same way
 * (by name, recursively), so checking every type separately covers the whole contract.
 */
final class SchemaEvolutionCheck {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RELEASED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\.v([1-9][0-9]*)\\.avsc");

    /** What a run found and how many released versions it compared. */
    record Report(List<String> problems, int comparisons) {
    }

    private SchemaEvolutionCheck() {
    }

    static Report check(Path schemasDir) throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Path> current = new TreeMap<>();
        try (Stream<Path> files = Files.list(schemasDir)) {
            files.filter(p -> p.getFileName().toString().endsWith(".avsc"))
                    .forEach(p -> current.put(p.getFileName().toString().replaceFirst("\\.avsc$", ""), p));
        }
        Map<String, SortedMap<Integer, Path>> released = releasedVersions(schemasDir.resolve("released"), problems);

        Map<String, Schema> currentSchemas = parse(current, null, null, null, problems);
        if (currentSchemas == null) {
            return new Report(problems, 0);
        }
        int comparisons = 0;
        for (Map.Entry<String, Path> entry : current.entrySet()) {
            String name = entry.getKey();
            SortedMap<Integer, Path> versions = released.getOrDefault(name, new TreeMap<>());
            if (versions.isEmpty()) {
                problems.add(name + ".avsc has no released version: copy it to released/" + name + ".v1.avsc");
            }
            for (Map.Entry<Integer, Path> version : versions.entrySet()) {
                Schema reader = currentSchemas.get(name);
                Map<String, Schema> withReleased = parse(current, name, version.getValue(), reader.getFullName(),
                        problems);
                if (withReleased == null) {
                    continue;
                }
                String label = "released/" + name + ".v" + version.getKey() + ".avsc";
                Schema writer = withReleased.get(name);
                comparisons++;
                SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
                for (Incompatibility i : result.getResult().getIncompatibilities()) {
                    problems.add(name + ".avsc cannot read data written with " + label + ": " + i.getType() + " at "
                            + i.getLocation() + " (" + i.getMessage() + ")");
                }
            }
        }
        released.keySet().stream().filter(name -> !current.containsKey(name)).forEach(name ->
                problems.add("released/" + name + ".v*.avsc has no current " + name + ".avsc: delete the released"
                        + " copies with the schema, deliberately"));
        return new Report(problems, comparisons);
    }

    private static Map<String, SortedMap<Integer, Path>> releasedVersions(Path dir, List<String> problems)
            throws IOException {
        Map<String, SortedMap<Integer, Path>> released = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return released;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Matcher m = RELEASED.matcher(p.getFileName().toString());
                if (m.matches()) {
                    released.computeIfAbsent(m.group(1), n -> new TreeMap<>()).put(Integer.parseInt(m.group(2)), p);
                } else {
                    problems.add("released/" + p.getFileName() + " is not named <Schema>.v<N>.avsc");
                }
            }
        }
        return released;
    }

    /**
     * Parses the current files together, with {@code replaced}'s file swapped for {@code substitute}
     * (which must define {@code expected}) when given. Returns each file's main schema by file name,
     * or null after recording why not.
     */
    private static Map<String, Schema> parse(Map<String, Path> current, String replaced, Path substitute,
            String expected, List<String> problems) {
        SchemaParser parser = new SchemaParser();
        Map<String, SchemaParser.ParseResult> results = new TreeMap<>();
        String file = null;
        try {
            for (Map.Entry<String, Path> entry : current.entrySet()) {
                boolean swap = entry.getKey().equals(replaced);
                Path path = swap ? substitute : entry.getValue();
                file = swap ? "released/" + path.getFileName() : path.getFileName().toString();
                if (swap && !declaredName(path).equals(expected)) {
                    problems.add(file + " defines " + declaredName(path) + ", not " + expected);
                    return null;
                }
                results.put(entry.getKey(), parser.parse(path));
            }
            Map<String, Schema> schemas = new TreeMap<>();
            for (Map.Entry<String, SchemaParser.ParseResult> entry : results.entrySet()) {
                file = entry.getKey().equals(replaced) ? "released/" + substitute.getFileName() : entry.getKey() + ".avsc";
                Schema schema = parser.resolve(entry.getValue());
                if (!entry.getKey().equals(replaced) && !schema.getName().equals(entry.getKey())) {
                    problems.add(entry.getKey() + ".avsc defines " + schema.getFullName()
                            + "; a schema file is named after its type");
                    return null;
                }
                schemas.put(entry.getKey(), schema);
            }
            return schemas;
        } catch (IOException | AvroRuntimeException e) {
            problems.add("cannot parse " + file + (substitute == null || file.startsWith("released/") ? ""
                    : " (beside released/" + substitute.getFileName() + ")") + ": " + e.getMessage());
            return null;
        }
    }

    /** The full name a schema file's top-level type declares (read as plain JSON: Avro's parser
     * would first want every type it refers to). */
    private static String declaredName(Path file) throws IOException {
        JsonNode root = JSON.readTree(file.toFile());
        String name = root.path("name").asText("");
        String namespace = root.path("namespace").asText("");
        return name.contains(".") || namespace.isEmpty() ? name : namespace + "." + name;
    }
}
