package io.mmgr.stream.tasks;

import java.util.List;

/**
 * A folder of related tasks (maze, sudoku, nav, magma, ...). Implementations are found with
 * {@link java.util.ServiceLoader}, so a new family plugs in without touching the catalog.
 */
public interface TaskFamily {
    List<TaskSpec> tasks();
}
