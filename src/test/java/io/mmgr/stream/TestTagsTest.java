package io.mmgr.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Surefire runs only {@code unit | topology} and Failsafe only {@code integration | browser} and, in an execution
 * of its own, {@code cluster} (the multi-process cluster harness), so a test class without one of those tags would
 * run nowhere, silently. Every class holding a test method
 * (anything meta-annotated {@link Testable}, inherited ones included) must carry exactly one.
 */
@Tag("unit")
class TestTagsTest {

    static final Set<String> KINDS = Set.of("unit", "topology", "integration", "browser", "cluster");

    @Test
    void everyTestClassHasExactlyOneKindTag() throws Exception {
        Map<String, Set<String>> kinds = testClassKinds();

        assertThat(kinds).containsKeys(TestTagsTest.class.getName(),
                "io.mmgr.stream.embedded.EmbeddedKafkaTest", "io.mmgr.stream.browser.DashboardBrowserTest",
                "io.mmgr.stream.bench.cluster.ClusterFaultTest");
        assertThat(kinds.get("io.mmgr.stream.bench.cluster.ClusterFaultTest")).containsExactly("cluster");
        assertThat(kinds.get("io.mmgr.stream.embedded.EmbeddedKafkaTest")).containsExactly("integration");
        List<String> wrong = new ArrayList<>();
        kinds.forEach((name, tags) -> {
            if (tags.size() != 1) {
                wrong.add(name + " " + tags);
            }
        });
        assertThat(wrong).as("test classes without exactly one of %s", KINDS).isEmpty();
    }

    /** Every concrete class under the test output with a test method, with its kind tags (enclosing classes' too). */
    static Map<String, Set<String>> testClassKinds() throws IOException, URISyntaxException {
        Path root = Path.of(TestTagsTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ClassLoader loader = TestTagsTest.class.getClassLoader();
        Map<String, Set<String>> kinds = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type;
                try {
                    type = Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;   // JMH-generated or otherwise unloadable: not a JUnit test
                }
                if (!Modifier.isAbstract(type.getModifiers()) && hasTestMethod(type)) {
                    kinds.put(name, kindTags(type));
                }
            }
        }
        return kinds;
    }

    static boolean hasTestMethod(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (AnnotationSupport.isAnnotated(m, Testable.class)) {
                    return true;
                }
            }
        }
        return false;
    }

    static Set<String> kindTags(Class<?> type) {
        Set<String> tags = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            AnnotationSupport.findRepeatableAnnotations(c, Tag.class).stream()
                    .map(Tag::value).filter(KINDS::contains).forEach(tags::add);
        }
        return tags;
    }
}
