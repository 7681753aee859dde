package io.mmgr.stream.topology.assembly;

import io.mmgr.stream.contract.PartKind;
import io.mmgr.stream.contract.MetricKey;
import io.mmgr.stream.contract.SampleStatus;
import io.mmgr.stream.contract.PartStatus;
import io.mmgr.stream.avro.AssemblyState;
import io.mmgr.stream.avro.DeterministicResult;
import io.mmgr.stream.avro.PartResult;
import io.mmgr.stream.avro.SampleKey;
import io.mmgr.stream.avro.SamplePlan;
import io.mmgr.stream.avro.SampleScore;
import io.mmgr.stream.tasks.GatedSample;
import io.mmgr.stream.tasks.GateResult;
import io.mmgr.stream.tasks.TaskCatalog;
import io.mmgr.stream.tasks.TaskSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The assembly rules, free of Kafka: keep a sample's plan and arrived parts (those intake evaluated
 * arrive on the plan itself), and decide when and what score to emit. A score is emitted when the last planned part arrives, again whenever a part
 * is replaced or a label added, and early (status PENDING) when a part reports why it is delayed.
 * No time window is involved, so a part that takes hours still counts.
 */
public final class ScoreAssembler {


    /** Parts of other generations are kept for a while (they may arrive before their plan); this bounds them. */
    static final int MAX_PARTS = 32;

    private final TaskCatalog catalog;

    public ScoreAssembler(TaskCatalog catalog) {
        this.catalog = catalog;
    }

    /** A score to publish and the fingerprint to remember for it. */
    public record Emission(SampleScore score, String fingerprint) {
    }

    public AssemblyState apply(AssemblyState state, Arrival arrival) {
        AssemblyState s = state == null
                ? new AssemblyState(null, new HashMap<>(), null)
                // a new state over the same plan and parts: only its own map of parts is changed below
                : new AssemblyState(state.getPlan(), new HashMap<>(state.getParts()), state.getLastEmitted());
        if (arrival instanceof Arrival.Plan p) {
            SamplePlan old = s.getPlan();
            if (old != null && !old.getGenerationId().equals(p.plan().getGenerationId())) {
                // a new generation of the sample replaces the old one: its parts no longer apply
                s.getParts().values().removeIf(part -> old.getGenerationId().equals(part.getGenerationId()));
            }
            // the parts intake evaluated itself arrive with the plan, in the same store write; the kept plan
            // leaves them out (they are in the parts)
            SamplePlan plan = p.plan();
            if (plan.getResults().isEmpty()) {
                s.setPlan(plan);
            } else {
                for (DeterministicResult r : plan.getResults()) {
                    PartResult part = Parts.of(r);
                    s.getParts().put(slot(part.getPart(), part.getGenerationId()), part);
                }
                // a copy, so that the arrival is not changed; by constructor, since a builder's copy is deep (a schema
                // walk over the whole plan per sample) and nothing here changes the lists it shares
                s.setPlan(new SamplePlan(plan.getGenerationId(), plan.getModel(), plan.getTrainingStep(), plan.getModality(),
                        plan.getProducedAt(), plan.getPlannedParts(), plan.getUnavailableParts(), plan.getArtifacts(), List.of()));
                prune(s);
            }
        } else if (arrival instanceof Arrival.Part p) {
            s.getParts().put(slot(p.part().getPart(), p.part().getGenerationId()), p.part());
            prune(s);
        }
        return s;
    }

    private static String slot(String part, String generationId) {
        return generationId == null ? part : part + "|" + generationId;
    }

    private static void prune(AssemblyState s) {
        if (s.getParts().size() <= MAX_PARTS) {
            return;
        }
        String current = s.getPlan() == null ? null : s.getPlan().getGenerationId();
        s.getParts().entrySet().stream()
                .filter(e -> e.getValue().getGenerationId() != null && !e.getValue().getGenerationId().equals(current))
                .min(Comparator.comparing(e -> e.getValue().getArrivedAt()))
                .map(Map.Entry::getKey)
                .ifPresent(s.getParts()::remove);
    }

    /** The score to emit now, if any: only when it differs from the last one emitted. */
    public Optional<Emission> score(SampleKey key, AssemblyState s, Instant now) {
        SamplePlan plan = s.getPlan();
        if (plan == null) {
            return Optional.empty();
        }
        Map<String, PartResult> arrived = new TreeMap<>();
        Map<String, String> pending = new TreeMap<>(plan.getUnavailableParts());
        boolean waiting = false;
        boolean announced = false;
        for (String name : plan.getPlannedParts()) {
            PartResult part = s.getParts().get(slot(name, plan.getGenerationId()));
            if (part == null) {
                waiting = true;
                pending.put(name, "waiting");
            } else if (PartStatus.PENDING.is(part.getStatus())) {
                waiting = true;
                announced = true;
                pending.put(name, part.getError() == null ? "pending" : part.getError());
            } else {
                arrived.put(name, part);
            }
        }
        if (waiting && !announced) {
            return Optional.empty();
        }
        Map<String, PartResult> humans = new TreeMap<>();
        s.getParts().forEach((slot, part) -> {
            if (part.getPart().startsWith(PartKind.HUMAN_PART_PREFIX)) {
                humans.put(part.getPart(), part);
            }
        });

        GatedSample gated = GatedSample.of(key.getTask(), catalog.find(key.getTask()), plan.getModality(), arrived.values(),
                plan.getUnavailableParts(), waiting);
        GateResult gate = gated.gate();
        // human labels are reported beside the parts' metrics; the gate never sees them
        Map<String, Double> metrics = new TreeMap<>(gated.metrics());
        List<String> used = new ArrayList<>(gated.used());
        for (PartResult part : humans.values()) {
            part.getMetrics().forEach((m, v) -> metrics.put(MetricKey.wire(part.getPart(), m), v));
            used.add(part.getPart());
        }
        SampleStatus status = gated.status();
        if (!waiting) {
            pending.keySet().retainAll(plan.getUnavailableParts().keySet());
        }
        SampleScore score = SampleScore.newBuilder()
                .setRunId(key.getRunId())
                .setModel(plan.getModel())
                .setCheckpointId(key.getCheckpointId())
                .setTrainingStep(plan.getTrainingStep())
                .setTask(key.getTask())
                .setSampleId(key.getSampleId())
                .setSeed(key.getSeed())
                .setModality(plan.getModality())
                .setGenerationId(plan.getGenerationId())
                .setStatus(status.name())
                .setPrimary(gate.primary())
                .setPrimarySource(gate.primarySource())
                .setMetrics(new HashMap<>(metrics))
                .setGates(new HashMap<>(gate.gates()))
                .setFailedChecks(gate.failedChecks())
                .setMissingChecks(gate.missingChecks())
                .setPartsUsed(used)
                .setPending(new HashMap<>(pending))
                .setErrors(new HashMap<>(gated.errors()))
                .setJustifications(new HashMap<>(gated.justifications()))
                .setProducedAt(plan.getProducedAt())
                .setScoredAt(now)
                .setArtifacts(plan.getArtifacts())
                .setPanelMetrics(panelMetrics(arrived.values()))
                .build();
        String fingerprint = fingerprint(score);
        if (fingerprint.equals(s.getLastEmitted())) {
            return Optional.empty();
        }
        return Optional.of(new Emission(score, fingerprint));
    }

    /** Digest of everything in a score but its timestamp, to re-emit only on a real change. */
    static String fingerprint(SampleScore s) {
        String canonical = String.join("\u0001", s.getGenerationId(), s.getStatus(), String.valueOf(s.getPrimary()),
                String.valueOf(s.getPrimarySource()), new TreeMap<>(s.getMetrics()).toString(),
                new TreeMap<>(s.getGates()).toString(), s.getFailedChecks().toString(), s.getMissingChecks().toString(),
                s.getPartsUsed().toString(), new TreeMap<>(s.getPending()).toString(),
                new TreeMap<>(s.getErrors()).toString(), new TreeMap<>(s.getJustifications()).toString(),
                s.getModel(), String.valueOf(s.getTrainingStep()));
        if (!s.getPanelMetrics().isEmpty()) {
            // appended only when present, so the digests of scores without a panel stay as they were
            canonical += "\u0001" + new TreeMap<>(s.getPanelMetrics());
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The judge part's panel answers, when it entered the score. */
    private static Map<String, Double> panelMetrics(java.util.Collection<PartResult> arrived) {
        Map<String, Double> out = new HashMap<>();
        for (PartResult part : arrived) {
            if (TaskSpec.JUDGE_PART.equals(part.getPart()) && PartStatus.OK.is(part.getStatus())) {
                out.putAll(part.getPanelMetrics());
            }
        }
        return out;
    }
}
