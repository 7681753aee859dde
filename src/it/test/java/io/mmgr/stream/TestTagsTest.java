package io.mmgr.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
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
 * (anything meta-annotated {@link Testable}, inherited ones included) must carry exactly one, in every
 * module's test output (this module sits on top of them all; the reactor has compiled them first).
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

    /**
     * A module may skip a test execution it has no class for (its pom's {@code mmgr.skip.*}, saving the JVM the
     * execution forks to find nothing): none may then hold a class that execution would run.
     */
    @Test
    void noModuleSkipsAnExecutionItHasATestFor() throws Exception {
        Path src = srcDir();
        Map<String, List<String>> skipped = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        for (String module : MODULES) {
            String pom = Files.readString(src.resolve(module).resolve("pom.xml"));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<mmgr\\.skip\\.([a-z-]+)>true</").matcher(pom);
            List<String> executions = new ArrayList<>();
            while (m.find()) {
                executions.add(m.group(1));
            }
            skipped.put(module, executions);
            for (Map.Entry<String, Set<String>> c : testClassTags(src, module).entrySet()) {
                String execution = execution(c.getValue());
                if (executions.contains(execution)) {
                    wrong.add(module + ": " + c.getKey() + " " + c.getValue() + " would run in the skipped execution " + execution);
                }
            }
        }
        // the check reads what the poms say: the modules with only unit tests do skip the others
        assertThat(skipped.get("families")).contains("integration", "alone", "small-heap");
        assertThat(skipped.get("it")).containsExactly("cluster");
        assertThat(skipped.get("bench")).doesNotContain("cluster");
        assertThat(wrong).isEmpty();
    }

    /** The execution a class's tags put it in: pom.xml's groups and excludedGroups, in order. */
    static String execution(Set<String> tags) {
        if (tags.contains("small-heap")) {
            return "small-heap";
        }
        if (tags.contains("cluster")) {
            return "cluster";
        }
        if (tags.contains("alone")) {
            return "alone";
        }
        return tags.contains("integration") || tags.contains("browser") ? "integration" : "unit";
    }

    /** The modules under src/, whose test outputs are checked. */
    static final List<String> MODULES = List.of("embedded", "contract", "families", "stream", "workers", "app", "bench", "it");

    /** Every concrete class under the modules' test outputs with a test method, with its kind tags (enclosing classes' too). */
    static Map<String, Set<String>> testClassKinds() throws IOException, URISyntaxException {
        Path src = srcDir();
        Map<String, Set<String>> kinds = new TreeMap<>();
        for (String module : MODULES) {
            testClassTags(src, module).forEach((name, tags) -> {
                Set<String> k = new LinkedHashSet<>(tags);
                k.retainAll(KINDS);
                kinds.put(name, k);
            });
        }
        return kinds;
    }

    static Path srcDir() throws URISyntaxException {
        Path own = Path.of(TestTagsTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return own.getParent().getParent().getParent(); // src/it/target/test-classes -> src
    }

    /** One module's test classes with every tag they carry (enclosing classes' too). */
    static Map<String, Set<String>> testClassTags(Path src, String module) throws IOException {
        Map<String, Set<String>> kinds = new TreeMap<>();
        Path root = src.resolve(module).resolve("target").resolve("test-classes");
        assertThat(root).as("the test output of module %s (the reactor compiles it before this one)", module).isDirectory();
        // a module's tests may not be on this one's class path (no test-jar): its own output is searched first
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, TestTagsTest.class.getClassLoader());
             Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type;
                try {
                    type = Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;   // JMH-generated or otherwise unloadable: not a JUnit test
                }
                if (!Modifier.isAbstract(type.getModifiers()) && hasTestMethod(type)) {
                    kinds.put(name, tags(type));
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

    static Set<String> tags(Class<?> type) {
        Set<String> tags = new LinkedHashSet<>();
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            AnnotationSupport.findRepeatableAnnotations(c, Tag.class).stream().map(Tag::value).forEach(tags::add);
        }
        return tags;
    }
}
