package io.mmgr.stream.topology;

import io.mmgr.stream.contract.BenchmarkSeeds;
import io.mmgr.stream.contract.Topics;
import io.mmgr.stream.contract.Stores;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.leaderboard.Agreement;
import io.mmgr.stream.leaderboard.Table5;
import io.mmgr.stream.limits.InputCheck;
import io.mmgr.stream.limits.InputLimits;
import io.mmgr.stream.registry.AvroSerdes;
import io.mmgr.stream.tasks.EvaluatorRegistry;
import io.mmgr.stream.tasks.RubricCatalog;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.topology.assembly.AssemblyTopology;
import io.mmgr.stream.topology.comparison.ComparisonSettings;
import io.mmgr.stream.topology.comparison.ComparisonTopology;
import io.mmgr.stream.topology.frechet.FrechetSettings;
import io.mmgr.stream.topology.frechet.FrechetTopology;
import io.mmgr.stream.topology.intake.IntakeTopology;
import io.mmgr.stream.topology.intake.ItemWait;
import io.mmgr.stream.topology.judgecost.JudgeCostTopology;
import io.mmgr.stream.topology.leaderboard.LeaderboardTopology;
import io.mmgr.stream.topology.status.CheckpointStatusSettings;
import io.mmgr.stream.topology.status.CheckpointStatusTopology;
import java.util.Objects;

/**
 * Everything the scorer's sub-flows need besides the builder and the streams they hand each other: the typed
 * topic and store registries, the serdes, the task plug-ins and the settings of every sub-flow. Made once by
 * whoever composes the scorer (the app, a test), so that no builder loads or parses a dependency of its own.
 * Only the composition reads it whole: each sub-flow builder is handed the record of what it uses
 * ({@link #intakeDeps()} and the others, checked here once: the records do not check again), and a store
 * of another sub-flow only as a typed handle in it.
 *
 * @param partitions   partitions of the sample-keyed topics and of the repartitions by checkpoint
 * @param judgeEnabled whether judge parts are planned
 * @param seedCounts   the benchmark's expected-sample counts, cached once for all the scorer's processors
 */
public record ScorerContext(Topics topics, Stores stores, AvroSerdes serdes, TaskCatalog catalog,
                            EvaluatorRegistry evaluators, ArtifactResolver artifacts, InputCheck check,
                            ItemWait itemWait, RubricCatalog rubrics, Agreement.Policy agreement,
                            ComparisonSettings comparisons, CheckpointStatusSettings status, FrechetSettings frechet,
                            int partitions, boolean judgeEnabled, BenchmarkSeeds.Shared seedCounts) {

    public ScorerContext {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(stores, "stores");
        Objects.requireNonNull(serdes, "serdes");
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(evaluators, "evaluators");
        Objects.requireNonNull(artifacts, "artifacts");
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(itemWait, "itemWait");
        Objects.requireNonNull(rubrics, "rubrics");
        Objects.requireNonNull(agreement, "agreement");
        Objects.requireNonNull(comparisons, "comparisons");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(frechet, "frechet");
        Objects.requireNonNull(seedCounts, "seedCounts");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1");
        }
    }

    /** What intake uses (its label check is handed assembly's store by assembly). */
    public IntakeTopology.Deps intakeDeps() {
        return new IntakeTopology.Deps(topics, stores.benchmarkItems, stores.parkedEvents, catalog, evaluators, check, itemWait,
                serdes, partitions, judgeEnabled);
    }

    public AssemblyTopology.Deps assemblyDeps() {
        return new AssemblyTopology.Deps(topics, stores.assembly, catalog);
    }

    public FrechetTopology.Deps frechetDeps() {
        return new FrechetTopology.Deps(topics, stores.frechetVectors, stores.frechetStats, artifacts, frechet);
    }

    /** What the leaderboard uses; the benchmark items are intake's global table. */
    public LeaderboardTopology.Deps leaderboardDeps() {
        return new LeaderboardTopology.Deps(topics, LeaderboardTopology.OwnStores.of(stores), stores.benchmarkItems, seedCounts,
                rubrics, agreement);
    }

    /** What the checkpoint comparison uses; the benchmark items are intake's global table. */
    public ComparisonTopology.Deps comparisonDeps() {
        return new ComparisonTopology.Deps(topics, ComparisonTopology.OwnStores.of(stores), stores.benchmarkItems, serdes,
                comparisons);
    }

    /** What the checkpoint status uses; the benchmark items are intake's global table. */
    public JudgeCostTopology.Deps judgeCostDeps() {
        return new JudgeCostTopology.Deps(topics, stores.judgeSpend, stores.judgeProjections);
    }

    public CheckpointStatusTopology.Deps statusDeps() {
        return new CheckpointStatusTopology.Deps(topics, CheckpointStatusTopology.OwnStores.of(stores), stores.benchmarkItems,
                status, partitions);
    }

    /**
     * A context whose stores are typed by {@code serdes} and whose settings come from {@code settings} (its
     * {@code mmgr.*} entries: input limits, item wait, agreement policy, checkpoint status; its partitions and
     * judge switch), the comparison and Fréchet defaults, and the plug-ins still to be given.
     */
    public static Builder from(ScorerSettings settings, Topics topics, AvroSerdes serdes) {
        Builder b = new Builder();
        b.topics = topics;
        b.serdes = serdes;
        b.stores = new Stores(serdes);
        b.check = new InputCheck(InputLimits.of(settings.kafkaOverrides()));
        b.itemWait = ItemWait.of(settings.kafkaOverrides());
        b.agreement = Agreement.Policy.of(settings.kafkaOverrides());
        b.status = CheckpointStatusSettings.of(settings.kafkaOverrides());
        b.partitions = settings.partitions();
        b.judgeEnabled = settings.judgeEnabled();
        return b;
    }

    /** Builds a context; the plug-ins (catalog, evaluators, artifacts, rubrics) have no default. */
    public static final class Builder {
        private Topics topics;
        private Stores stores;
        private AvroSerdes serdes;
        private TaskCatalog catalog;
        private EvaluatorRegistry evaluators;
        private ArtifactResolver artifacts;
        private InputCheck check;
        private ItemWait itemWait;
        private RubricCatalog rubrics;
        private Agreement.Policy agreement;
        private ComparisonSettings comparisons = ComparisonSettings.DEFAULT;
        private CheckpointStatusSettings status;
        private FrechetSettings frechet = FrechetSettings.DEFAULT;
        private int partitions;
        private boolean judgeEnabled;

        private Builder() {
        }

        public Builder tasks(TaskCatalog catalog, EvaluatorRegistry evaluators) {
            this.catalog = catalog;
            this.evaluators = evaluators;
            return this;
        }

        public Builder artifacts(ArtifactResolver artifacts) {
            this.artifacts = artifacts;
            return this;
        }

        public Builder rubrics(RubricCatalog rubrics) {
            this.rubrics = rubrics;
            return this;
        }

        public Builder check(InputCheck check) {
            this.check = check;
            return this;
        }

        public Builder itemWait(ItemWait itemWait) {
            this.itemWait = itemWait;
            return this;
        }

        public Builder agreement(Agreement.Policy agreement) {
            this.agreement = agreement;
            return this;
        }

        /** The Table 5 figures the agreement flags rest on until enough labels exist (none unless given). */
        public Builder agreementPriors(Table5 priors) {
            this.agreement = agreement.withPriors(priors);
            return this;
        }

        public Builder comparisons(ComparisonSettings comparisons) {
            this.comparisons = comparisons;
            return this;
        }

        public Builder status(CheckpointStatusSettings status) {
            this.status = status;
            return this;
        }

        public Builder frechet(FrechetSettings frechet) {
            this.frechet = frechet;
            return this;
        }

        public ScorerContext build() {
            // a family's own ground truth is held to the same limits as the shared fields it replaced
            InputCheck itemCheck = check == null || catalog == null ? check : check.withPayloads(catalog::readPayload);
            return new ScorerContext(topics, stores, serdes, catalog, evaluators, artifacts, itemCheck, itemWait, rubrics, agreement,
                    comparisons, status, frechet, partitions, judgeEnabled, new BenchmarkSeeds.Shared());
        }
    }
}
