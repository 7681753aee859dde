package io.mmgr.stream.judge.panel;

import io.mmgr.stream.artifacts.Digests;
import io.mmgr.stream.avro.JudgeRequest;
import io.mmgr.stream.avro.JudgeVerdict;
import io.mmgr.stream.contract.VerdictStatus;
import io.mmgr.stream.judge.JudgeEngine;
import io.mmgr.stream.judge.VerdictCache;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Judges a request with a panel of judges, each answering {@code samples} times, in the place of the
 * worker's engine ({@link JudgeEngine#delegateTo}). Every (judge, sample) is asked through an engine of
 * its own: the judge's engine with the sample's seed ({@link JudgeEngine#withSeed}), so it keeps that
 * judge's client, quota, circuit and retries, and the shared cache, ledger and budget. A (judge, sample)
 * answered once is not asked again while the others still wait (the request's own state, and the
 * engine's local cache entry under its seeded key); the panel's verdict is cached once under a key of
 * its own (the rule, the sample count and every (judge, sample)'s key), so a configuration with another
 * n or other judges never shares a verdict with this one. Only that verdict goes to the cache topic.
 */
public final class PanelJudge implements JudgeEngine.Delegate {

    /** One judge of the panel: its name on verdicts ({@code protocol/model}) and its engine. */
    public record Member(String name, JudgeEngine engine) {
    }

    /** What one request has got so far, by judge and sample. */
    private static final class State {
        final JudgeVerdict[][] answers;
        final JudgeEngine.Tries[][] tries;

        State(int judges, int samples) {
            answers = new JudgeVerdict[judges][samples];
            tries = new JudgeEngine.Tries[judges][samples];
            for (JudgeEngine.Tries[] row : tries) {
                for (int s = 0; s < samples; s++) {
                    row[s] = new JudgeEngine.Tries();
                }
            }
        }
    }

    private final List<Member> members;
    private final List<List<JudgeEngine>> engines = new ArrayList<>();
    private final int samples;
    private final PanelRule rule;
    private final VerdictCache cache;
    private final PanelAgreement agreement;
    /** Keyed by the worker's per-request tries: a request the worker forgets lets its state go. */
    private final Map<JudgeEngine.Tries, State> states = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * @param members   the judges, the worker's own first (their engines without a delegate)
     * @param samples   answers per judge; 1 asks each judge once without a seed
     * @param agreement where fresh verdicts' inter-judge and self agreement are counted
     */
    public PanelJudge(List<Member> members, int samples, PanelRule rule, VerdictCache cache, PanelAgreement agreement) {
        if (members.isEmpty() || samples < 1) {
            throw new IllegalArgumentException("a panel needs at least one judge and one sample");
        }
        this.members = List.copyOf(members);
        this.samples = samples;
        this.rule = rule;
        this.cache = cache;
        this.agreement = agreement;
        for (Member m : members) {
            List<JudgeEngine> bySample = new ArrayList<>();
            for (int s = 0; s < samples; s++) {
                // a copy even for n = 1: the worker's own engine delegates to this panel
                bySample.add(m.engine().withSeed(samples == 1 ? 0 : s + 1));
            }
            engines.add(bySample);
        }
    }

    @Override
    public void share(Collection<Integer> partitions, int total) {
        // the worker's own engine got its share already; every other judge's quota is split the same way
        for (int m = 1; m < members.size(); m++) {
            members.get(m).engine().resilience().share(partitions, total);
        }
    }

    @Override
    public JudgeEngine.Outcome judge(JudgeRequest request, JudgeEngine.Tries tries) {
        Optional<String> key = key(request);
        if (key.isEmpty()) {
            // an unknown rubric or an unbuildable prompt: the first engine says so as it would alone
            return engines.get(0).get(0).judge(request, tries);
        }
        var hit = cache.get(key.get());
        if (hit.isPresent()) {
            states.remove(tries);
            return new JudgeEngine.Outcome.Done(JudgeEngine.copyFor(hit.get(), request), false);
        }
        State state = states.computeIfAbsent(tries, t -> new State(members.size(), samples));
        JudgeEngine.Outcome.Wait firstWait = null;
        for (int m = 0; m < members.size(); m++) {
            for (int s = 0; s < samples; s++) {
                if (state.answers[m][s] != null) {
                    continue;
                }
                JudgeEngine.Outcome o = engines.get(m).get(s).judge(request, state.tries[m][s]);
                if (o instanceof JudgeEngine.Outcome.Done d) {
                    if (VerdictStatus.FAILED.is(d.verdict().getStatus())) {
                        // no answer by the deadline: the whole verdict is FAILED, not cached, retried if published again
                        states.remove(tries);
                        return new JudgeEngine.Outcome.Done(PanelVerdicts.failed(d.verdict(), where(m, s)), false);
                    }
                    state.answers[m][s] = d.verdict();
                } else if (o instanceof JudgeEngine.Outcome.Wait w && firstWait == null) {
                    firstWait = new JudgeEngine.Outcome.Wait(where(m, s) + ": " + w.reason(), w.retryIn(), w.resume());
                }
            }
        }
        if (firstWait != null) {
            return firstWait;
        }
        states.remove(tries);
        JudgeVerdict verdict = PanelVerdicts.combine(request, key.get(), names(), state.answers, samples, rule);
        cache.put(key.get(), verdict);
        agreement.observe(verdict);
        return new JudgeEngine.Outcome.Done(verdict, true);
    }

    private String where(int member, int sample) {
        String judge = members.size() > 1 ? "judge " + members.get(member).name() : "judge";
        return samples > 1 ? judge + " sample " + (sample + 1) + " of " + samples : judge;
    }

    private List<String> names() {
        return members.stream().map(Member::name).toList();
    }

    /** The panel verdict's cache key: the rule, n and every (judge, sample)'s own key. */
    Optional<String> key(JudgeRequest request) {
        StringBuilder b = new StringBuilder("panel rule=").append(rule.id()).append(" samples=").append(samples);
        for (List<JudgeEngine> bySample : engines) {
            for (JudgeEngine e : bySample) {
                Optional<String> k = e.cacheKey(request);
                if (k.isEmpty()) {
                    return Optional.empty();
                }
                b.append('\n').append(k.get());
            }
        }
        return Optional.of(Digests.sha256(b.toString().getBytes(StandardCharsets.UTF_8)));
    }

    public PanelAgreement agreement() {
        return agreement;
    }

    /** The judges' names, for logs. */
    public List<Member> members() {
        return members;
    }
}
