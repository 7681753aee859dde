package io.mmgr.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/architecture.md's source layout describes, read from the import lines: plain-Java layers
 * (evaluators, vision, leaderboard maths) do not reach up into Kafka wiring, the CLI or the benches,
 * and vision knows no task.
 */
@Tag("unit")
class PackageLayersTest {

    static final Path MAIN = Path.of("src/main/java/io/mmgr/stream");
    static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.mmgr\\.stream\\.([a-z]+)\\.", Pattern.MULTILINE);

    /** Package -> the top-level packages it must not import. */
    static final Map<String, List<String>> FORBIDDEN = Map.of(
            "tasks", List.of("topology", "cli", "app", "web", "bench", "demo", "evaluate", "judge"),
            "vision", List.of("tasks", "topology", "cli", "app", "web", "bench", "demo", "leaderboard", "judge"),
            "leaderboard", List.of("topology", "cli", "app", "web", "bench", "demo"),
            "contract", List.of("topology", "cli", "app", "web", "bench", "demo", "tasks"),
            "judge", List.of("topology", "cli", "app", "web", "bench", "demo"),
            "web", List.of("topology", "cli", "bench", "demo"));

    @Test
    void noLayerImportsTheLayersAboveIt() throws IOException {
        List<String> violations = new ArrayList<>();
        for (var e : FORBIDDEN.entrySet()) {
            try (Stream<Path> files = Files.walk(MAIN.resolve(e.getKey()))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = IMPORT.matcher(Files.readString(f));
                    while (m.find()) {
                        if (e.getValue().contains(m.group(1))) {
                            violations.add(MAIN.relativize(f) + " imports " + m.group(1) + "/");
                        }
                    }
                }
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void theCheckSeesImports() throws IOException {
        // the pattern must match what the sources write, or the check above would pass on nothing
        Matcher m = IMPORT.matcher(Files.readString(MAIN.resolve("bench/MagmaWorkload.java")));
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("tasks");
    }
}
