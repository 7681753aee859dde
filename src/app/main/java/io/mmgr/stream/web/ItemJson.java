package io.mmgr.stream.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GroundTruth;
import io.mmgr.stream.json.JsonAvro;
import io.mmgr.stream.tasks.EvaluationException;
import io.mmgr.stream.tasks.FamilyPayload;
import io.mmgr.stream.tasks.TaskFamily;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.generic.GenericRecord;

/**
 * A benchmark item as the API shows it: a family's ground truth payload decoded into its record's fields
 * ({@code groundTruth.payload} an object, not the base64 of its bytes), so the dashboard shows the truth.
 */
final class ItemJson {

    private final Map<String, FamilyPayload> payloads = new HashMap<>();

    ItemJson(List<TaskFamily> families) {
        families.forEach(f -> f.payload().ifPresent(p -> payloads.put(p.family(), p)));
    }

    ObjectNode of(BenchmarkItem item) {
        ObjectNode json = JsonAvro.toJson(item);
        decoded(item.getGroundTruth()).ifPresent(r -> {
            try {
                ((ObjectNode) json.get("groundTruth")).set("payload", Json.MAPPER.readTree(r.toString()));
            } catch (JsonProcessingException e) {
                // Avro writes a non-finite double as NaN, which JSON lacks: left as sent
            }
        });
        return json;
    }

    private Optional<GenericRecord> decoded(GroundTruth gt) {
        FamilyPayload payload = gt == null || gt.getFamily() == null ? null : payloads.get(gt.getFamily());
        if (payload == null) {
            return Optional.empty();
        }
        try {
            return payload.read(gt);
        } catch (EvaluationException e) {
            return Optional.empty(); // left as sent: the family refuses the item with the reason
        }
    }
}
