package io.mmgr.stream;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The layering of {@code io.mmgr.stream}'s package-info, checked on the compiled main classes: no package
 * cycle, no import against the layer direction (the app reaches the lab only through {@code CommandPlugin}
 * and {@code LocalStack}, found at run time), sub-flows and families independent of each other, the registry
 * server kept to the lab. It keeps this true until Maven modules enforce it; the fixture packages under
 * {@code archfixture} show that each kind of breach is caught.
 */
@Tag("unit")
class ArchitectureTest {

    static final String ROOT = "io.mmgr.stream";
    static final String FIXTURE = ROOT + ".archfixture";

    static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(ROOT);
    }

    /** Every package is a slice (topology and topology.intake are two): none may import itself through others. */
    static ArchRule noPackageCycles(String root) {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }

    /**
     * The layers, bottom up. Stream and workers sit side by side above the contract and know neither each
     * other nor the families. The app is above them, and the lab (embedded stack, demo, benches) on top: no
     * class below it imports it.
     */
    static ArchRule layers(String root, boolean optional) {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(optional)
                // every class is in a layer; the root package holds only its package-info
                .ensureAllClassesAreContainedInArchitectureIgnoring(root)
                .layer("Base").definedBy(root + ".avro..", root + ".json..", root + ".limits..", root + ".vision..",
                        root + ".frechet..", root + ".registry..")
                .layer("Contract").definedBy(root + ".contract..")
                .layer("Spi").definedBy(root + ".tasks")
                .layer("Artifacts").definedBy(root + ".artifacts..")
                .layer("FamilyCommands").definedBy(root + ".tasks.cli..")
                .layer("Families").definedBy(resideInAPackage(root + ".tasks.*..").and(not(resideInAPackage(root + ".tasks.cli.."))))
                .layer("Stream").definedBy(root + ".leaderboard..", root + ".topology..")
                .layer("Workers").definedBy(root + ".worker..", root + ".evaluate..", root + ".judge..")
                .layer("App").definedBy(root + ".app..", root + ".web..", root + ".report..", root + ".cli..")
                .layer("Lab").definedBy(root + ".embedded..", root + ".demo..", root + ".bench..")
                .whereLayer("Base").mayOnlyAccessLayers("Base")
                .whereLayer("Contract").mayOnlyAccessLayers("Base")
                .whereLayer("Spi").mayOnlyAccessLayers("Contract", "Base")
                .whereLayer("Artifacts").mayOnlyAccessLayers("Spi", "Contract", "Base")
                .whereLayer("FamilyCommands").mayOnlyAccessLayers("Artifacts", "Spi", "Contract", "Base")
                .whereLayer("Families").mayOnlyAccessLayers("FamilyCommands", "Artifacts", "Spi", "Contract", "Base")
                .whereLayer("Stream").mayOnlyAccessLayers("Artifacts", "Spi", "Contract", "Base")
                .whereLayer("Workers").mayOnlyAccessLayers("Artifacts", "Spi", "Contract", "Base")
                .whereLayer("App").mayOnlyAccessLayers("Stream", "Workers", "Families", "FamilyCommands", "Artifacts", "Spi", "Contract", "Base");
    }

    @Test
    void noPackageImportsItselfThroughOthers() {
        noPackageCycles(ROOT).check(main);
    }

    @Test
    void noPackageImportsAgainstTheLayers() {
        layers(ROOT, false).check(main);
    }

    @Test
    void subFlowsAndFamiliesStandAlone() {
        slices().matching(ROOT + ".topology.(*)..").should().notDependOnEachOther()
                .because("sub-flows share only the contract; ScoringTopology hands one's streams and stores to another")
                .check(main);
        noClasses().that().resideInAPackage(ROOT + ".topology.*..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".topology")
                .because("the sub-flows are wired by topology/, not the other way round")
                .check(main);
        slices().matching(ROOT + ".tasks.(*)..").should().notDependOnEachOther()
                .ignoreDependency(alwaysTrue(), resideInAPackage(ROOT + ".tasks.cli.."))
                .because("a task family is one folder behind the SPI (and its commands' support, tasks.cli)")
                .check(main);
    }

    @Test
    void onlyTheLabUsesTheRegistryServer() {
        // the server's classes left the client's package: the base layer holds the client and the serdes alone
        assertThat(main.contain(ROOT + ".embedded.registry.RegistryServer")).isTrue();
        assertThat(main.contain(ROOT + ".registry.RegistryServer")).isFalse();
        noClasses().that().resideOutsideOfPackages(ROOT + ".embedded..", ROOT + ".demo..", ROOT + ".bench..")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".embedded.registry..")
                .because("the scorer talks to any Confluent-compatible registry through SchemaRegistryClient; the server is the embedded stack's")
                .check(main);
    }

    @Test
    void theEmbeddedInfrastructureKnowsNothingOfTheScorer() {
        // the broker, the registry server and the sweep import no other package of ours: the lab's demo and
        // benches hand them to the app (demo.EmbeddedLocalStack), and every layer's tests can start them
        noClasses().that().resideInAPackage(ROOT + ".embedded..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage(ROOT + "..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.resideInAPackage(ROOT + ".embedded.."))))
                .check(main);
    }

    @Test
    void theRulesSeeTheScorerAndCatchBreaches() {
        // the import found the main classes, not an empty set a rule would pass on
        assertThat(main.containPackage(ROOT + ".topology.intake")).isTrue();
        assertThat(main.contain(ROOT + ".topology.ScoringTopology")).isTrue();
        assertThat(main.containPackage(FIXTURE)).isFalse();
        // the fixture: contract.Low imports topology.High, which imports contract.Low back
        JavaClasses fixture = new ClassFileImporter().importPackages(FIXTURE);
        EvaluationResult cycles = noPackageCycles(FIXTURE).evaluate(fixture);
        assertThat(cycles.hasViolation()).isTrue();
        assertThat(cycles.getFailureReport().toString()).contains("contract", "topology");
        EvaluationResult layering = layers(FIXTURE, true).evaluate(fixture);
        assertThat(layering.hasViolation()).isTrue();
        assertThat(layering.getFailureReport().toString()).contains("Low", "High");
    }
}
