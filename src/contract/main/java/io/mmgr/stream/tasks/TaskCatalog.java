package io.mmgr.stream.tasks;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Every task the scorer knows, from the {@link TaskFamily} services on the class path. */
public final class TaskCatalog {

    private final Map<String, TaskSpec> tasks;

    public TaskCatalog(Collection<TaskSpec> specs) {
        Map<String, TaskSpec> byId = new TreeMap<>();
        for (TaskSpec spec : specs) {
            if (byId.put(spec.id(), spec) != null) {
                throw new IllegalStateException("task '" + spec.id() + "' is defined twice");
            }
        }
        this.tasks = Collections.unmodifiableMap(byId);
    }

    public static TaskCatalog load() {
        var specs = new java.util.ArrayList<TaskSpec>();
        for (TaskFamily family : TaskFamily.installed()) {
            specs.addAll(family.tasks());
        }
        return new TaskCatalog(specs);
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
}
