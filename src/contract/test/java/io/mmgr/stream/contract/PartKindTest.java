package io.mmgr.stream.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The kinds the Java code writes are the ones the public schema documents for producers in other languages. */
@Tag("unit")
class PartKindTest {

    @Test
    void theKindsAreThoseThePartResultSchemaDocuments() throws IOException {
        JsonNode schema = new ObjectMapper().readTree(Path.of("schemas/PartResult.avsc").toFile());
        JsonNode kind = StreamSupport.stream(schema.get("fields").spliterator(), false)
                .filter(f -> f.get("name").asText().equals("kind")).findFirst().orElseThrow();
        assertThat(kind.get("type").asText()).as("kind stays an Avro string").isEqualTo("string");
        List<String> documented = Arrays.asList(kind.get("doc").asText().split("\\s*\\|\\s*"));
        assertThat(Arrays.stream(PartKind.values()).map(PartKind::wire)).containsExactlyElementsOf(documented);
    }
}
