package io.mmgr.stream.tasks;

import java.util.List;

/** The rubrics of one task family; registered in {@code META-INF/services/io.mmgr.stream.tasks.RubricProvider}. */
public interface RubricProvider {
    List<JudgeRubric> rubrics();
}
