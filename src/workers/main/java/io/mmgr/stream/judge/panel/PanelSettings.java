package io.mmgr.stream.judge.panel;

import io.mmgr.stream.judge.CostProjection;
import io.mmgr.stream.judge.JudgeEngine;
import io.mmgr.stream.judge.JudgeMetrics;
import io.mmgr.stream.judge.JudgeRuntime;
import io.mmgr.stream.judge.PanelHook;
import io.mmgr.stream.tasks.ArtifactResolver;
import io.mmgr.stream.tasks.RubricCatalog;
import java.time.Clock;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.mmgr.stream.judge.AzureSettings;
import io.mmgr.stream.judge.JudgeSettings;
import io.mmgr.stream.judge.protocol.JudgeProtocol;
import io.mmgr.stream.judge.protocol.ModelProfile;
import io.mmgr.stream.judge.protocol.StructuredOutput;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The panel and repeated sampling around the worker's judge, and the lane's price factor for the cost
 * projection.
 *
 * @param others       the judges beside the worker's own ({@code --judge-panel}), in order
 * @param samples      answers per judge and rubric ({@code --judge-samples}, 1: asked once, no seed)
 * @param rule         how the judges' values become the verdict's ({@code --judge-panel-rule})
 * @param laneDiscount price factor of the lane requests go through, in (0, 1]; 1.0 for realtime (the batch lane
 *                     sets its own)
 */
public record PanelSettings(List<JudgeSettings> others, int samples, PanelRule rule, double laneDiscount) implements PanelHook {

    private static final Logger LOG = LoggerFactory.getLogger(PanelSettings.class);

    /** One judge, asked once, realtime prices: what the judge does without any of these flags. */
    public static final PanelSettings NONE = new PanelSettings(List.of(), 1, PanelRule.MAJORITY, 1.0);

    public PanelSettings {
        others = List.copyOf(others);
        Objects.requireNonNull(rule);
        if (samples < 1 || samples > 25) {
            throw new IllegalArgumentException("--judge-samples must be between 1 and 25, not " + samples);
        }
        if (!(laneDiscount > 0.0) || laneDiscount > 1.0) {
            throw new IllegalArgumentException("the lane's price factor must be in (0, 1], not " + laneDiscount);
        }
    }

    /** Judges per rubric, the worker's own included. */
    @Override
    public int judges() {
        return others.size() + 1;
    }

    /** Whether judging differs from one judge asked once. */
    public boolean active() {
        return !others.isEmpty() || samples > 1;
    }

    @Override
    public PanelSettings withLaneDiscount(double factor) {
        return new PanelSettings(others, samples, rule, factor);
    }

    /**
     * When the panel is active, hands {@code engine}'s judging to a {@link PanelJudge}: the other judges get engines of
     * their own (client, quota, circuit, retries) over the same cache and ledger.
     */
    @Override
    public void attach(JudgeEngine engine, CostProjection projection, Map<String, String> env, ArtifactResolver artifacts,
                       JudgeMetrics metrics) {
        if (!active()) {
            return;
        }
        List<PanelJudge.Member> members = new ArrayList<>();
        members.add(new PanelJudge.Member(name(engine.settings()), engine));
        for (JudgeSettings other : others) {
            JudgeEngine e = new JudgeEngine(other, JudgeRuntime.client(other, env), RubricCatalog.load(), artifacts, engine.cache(),
                    engine.ledger(), metrics, Clock.systemUTC());
            e.project(projection, false);
            members.add(new PanelJudge.Member(name(other), e));
        }
        engine.delegateTo(new PanelJudge(members, samples, rule, engine.cache(), new PanelAgreement(judges(), metrics.registry())));
        LOG.info("judge panel: {} judge(s) ({}), {} sample(s) each, rule {}", members.size(),
                members.stream().map(PanelJudge.Member::name).collect(Collectors.joining(", ")), samples, rule.id());
    }

    /** A judge's name on verdicts: {@code protocol/model}. */
    public static String name(JudgeSettings s) {
        return s.protocol().id() + "/" + s.model();
    }

    /**
     * The judges a list of {@code --judge-panel} values names, each {@code PROTOCOL,MODEL,BASE_URL[,KEY_ENV]}; everything
     * else (quota, retries, circuit, prices, budget, media, output cap, timeout, concurrency, structured output) is the
     * worker's judge's, the model's profile from its name. An Azure judge's deployment is its model name.
     */
    public static List<JudgeSettings> parse(List<String> specs, JudgeSettings main) {
        List<JudgeSettings> out = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of(name(main)));
        for (String spec : specs) {
            String[] f = spec.split(",", -1);
            if (f.length < 3 || f.length > 4 || f[0].isBlank() || f[1].isBlank() || f[2].isBlank()) {
                throw new IllegalArgumentException("--judge-panel takes PROTOCOL,MODEL,BASE_URL[,KEY_ENV], not '" + spec + "'");
            }
            JudgeProtocol protocol = JudgeProtocol.parse(f[0].strip());
            URI url;
            try {
                url = URI.create(f[2].strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--judge-panel '" + spec + "': the base URL is not a URL (" + e.getMessage() + ")");
            }
            JudgeSettings s = JudgeSettings.builder(protocol, url, f[1].strip())
                    .apiKeyEnv(f.length == 4 && !f[3].isBlank() ? f[3].strip() : null)
                    .structuredOutput(StructuredOutput.parse(main.structuredOutput().id(), protocol))
                    .profile(ModelProfile.forModel(protocol, f[1].strip()).withAnswerTokens(main.profile().answerTokens()))
                    .quota(main.quota()).retry(main.retry()).circuit(main.circuit()).pricing(main.pricing()).media(main.media())
                    .concurrency(main.concurrency()).timeout(main.timeout()).maxInFlight(main.maxInFlight())
                    .azure(new AzureSettings(null, main.azure().apiVersion()))
                    .build();
            if (names.contains(name(s))) {
                throw new IllegalArgumentException("--judge-panel names " + name(s) + " twice; to ask a judge more than once use "
                        + "--judge-samples");
            }
            names.add(name(s));
            out.add(s);
        }
        return out;
    }
}
