package io.mmgr.stream.tasks;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Every judge rubric of the installed task families, by id. */
public final class RubricCatalog {

    private final Map<String, JudgeRubric> rubrics;

    public RubricCatalog(Collection<JudgeRubric> all) {
        Map<String, JudgeRubric> byId = new TreeMap<>();
        for (JudgeRubric r : all) {
            if (byId.put(r.id(), r) != null) {
                throw new IllegalStateException("rubric '" + r.id() + "' is defined twice");
            }
        }
        this.rubrics = Collections.unmodifiableMap(byId);
    }

    public static RubricCatalog load() {
        List<JudgeRubric> all = new java.util.ArrayList<>();
        for (TaskFamily family : TaskFamily.installed()) {
            all.addAll(family.rubrics());
        }
        return new RubricCatalog(all);
    }

    public Optional<JudgeRubric> find(String id) {
        return Optional.ofNullable(rubrics.get(id));
    }

    public Collection<JudgeRubric> all() {
        return rubrics.values();
    }
}
