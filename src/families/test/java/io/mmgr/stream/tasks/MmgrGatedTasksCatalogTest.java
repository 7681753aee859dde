package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The ServiceLoader finds the nine gated MMGR tasks of this branch, wired as the seed describes. */
@Tag("unit")
class MmgrGatedTasksCatalogTest {

    private static final TaskCatalog CATALOG = TaskCatalog.load();

    static Stream<Arguments> specs() {
        Set<String> imageVideo = Set.of("image", "video");
        return Stream.of(
                Arguments.of("sudoku", "sudoku", imageVideo, List.of("sudoku-ocr")),
                Arguments.of("arc", "arc", imageVideo, List.of("arc-grid")),
                Arguments.of("math", "math", Set.of("image", "video", "text"), List.of()),
                Arguments.of("nav-last-mile", "nav", imageVideo, List.of("nav-geometry", "geo-align")),
                Arguments.of("nav-top-down", "nav", imageVideo, List.of("nav-geometry", "view-syn")),
                Arguments.of("nav-3d-real-world", "nav", imageVideo, List.of("nav-geometry", "view-syn")),
                Arguments.of("nav-slag", "nav", imageVideo, List.of("nav-geometry", "view-syn")),
                Arguments.of("physical-concepts", "physics", Set.of("video"), List.of()),
                Arguments.of("sports", "physics", Set.of("video"), List.of()));
    }

    @Test
    void allNineTasksAreFound() {
        assertThat(CATALOG.ids()).contains("sudoku", "arc", "math", "nav-last-mile", "nav-top-down",
                "nav-3d-real-world", "nav-slag", "physical-concepts", "sports");
    }

    @ParameterizedTest
    @MethodSource("specs")
    void eachTaskIsWiredAsTheSeedDescribes(String id, String family, Set<String> modalities, List<String> evaluators) {
        TaskSpec spec = CATALOG.find(id).orElseThrow();

        assertThat(spec.benchmark()).isEqualTo("mmgr");
        assertThat(spec.family()).isEqualTo(family);
        assertThat(spec.modalities()).isEqualTo(modalities);
        assertThat(spec.evaluators()).containsExactlyInAnyOrderElementsOf(evaluators);
        assertThat(spec.rubric()).isEqualTo(Optional.of(id));
        assertThat(spec.judged()).isTrue();
    }
}
