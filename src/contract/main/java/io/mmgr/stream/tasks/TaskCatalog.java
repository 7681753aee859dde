package io.mmgr.stream.tasks;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.generic.IndexedRecord;

/** Every task the scorer knows, from the {@link TaskFamily} services on the class path. */
public final class TaskCatalog {

    private final Map<String, TaskSpec> tasks;
    private final Map<String, FamilyPayload> payloads;

    public TaskCatalog(Collection<TaskSpec> specs) {
        this(specs, List.of());
    }

    /** {@code payloads}: the families' own ground-truth schemas, so intake can hold a payload's fields to the limits. */
    public TaskCatalog(Collection<TaskSpec> specs, Collection<FamilyPayload> payloads) {
        Map<String, TaskSpec> byId = new TreeMap<>();
        for (TaskSpec spec : specs) {
            if (byId.put(spec.id(), spec) != null) {
                throw new IllegalStateException("task '" + spec.id() + "' is defined twice");
            }
        }
        this.tasks = Collections.unmodifiableMap(byId);
        Map<String, FamilyPayload> byFamily = new TreeMap<>();
        payloads.forEach(p -> byFamily.put(p.family(), p));
        this.payloads = Collections.unmodifiableMap(byFamily);
    }

    public static TaskCatalog load() {
        var specs = new java.util.ArrayList<TaskSpec>();
        var payloads = new java.util.ArrayList<FamilyPayload>();
        for (TaskFamily family : TaskFamily.installed()) {
            specs.addAll(family.tasks());
            family.payload().ifPresent(payloads::add);
        }
        return new TaskCatalog(specs, payloads);
    }

    public Optional<TaskSpec> find(String task) {
        return Optional.ofNullable(tasks.get(task));
    }

    public Collection<TaskSpec> all() {
        return tasks.values();
    }

    public java.util.Set<String> ids() {
        return tasks.keySet();
    }

    /** A family payload read as a record, for {@link io.mmgr.stream.limits.InputCheck#withPayloads}: empty when unknown or unreadable. */
    public Optional<IndexedRecord> readPayload(String family, ByteBuffer payload) {
        FamilyPayload p = payloads.get(family);
        if (p == null) {
            return Optional.empty();
        }
        try {
            return Optional.<IndexedRecord>of(p.read(payload));
        } catch (EvaluationException e) {
            return Optional.empty();
        }
    }
}
