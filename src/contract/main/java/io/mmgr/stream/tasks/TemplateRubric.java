package io.mmgr.stream.tasks;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.json.JsonErrors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rubric whose prompts are versioned text templates next to the family's classes, named
 * {@code rubric-<id>-<modality>-<v>.txt}. A template has a {@code [system]} and a {@code [user]}
 * section; {@code {{name}}} is replaced by a text input, a line holding only {@code {{media:slot}}}
 * by the media of that slot, {@code {{include FILE}}} by another resource of the same folder, and
 * lines starting with {@code ##} are comments. The answer format is generated from the metrics, so
 * the schema sent to the provider, the instructions and the parser can never disagree.
 */
public abstract class TemplateRubric implements JudgeRubric {

    /** Bumped when the generated answer-format text or the parsing rules change. */
    static final String FORMAT_VERSION = "answer-format-1";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-zA-Z0-9_:\\-. ]+)}}");
    /**
     * Parses answers tolerantly (trailing commas, single quotes, ...) but within limits no rubric answer
     * comes near (one object of metrics, each a score and a sentence or two): 32 levels, 10,000
     * tokens, 65,536-character strings, 256-character names, 100-digit numbers, 4 MiB in all. A JSON
     * bomb in a judge's answer then fails the parse with the limit it broke.
     */
    private static final ObjectMapper LENIENT = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(32)
                            .maxTokenCount(10_000)
                            .maxStringLength(1 << 16)
                            .maxNameLength(256)
                            .maxNumberLength(100)
                            .maxDocumentLength(4L << 20)
                            .build())
                    .build())
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_SINGLE_QUOTES,
                    JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                    JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private final String id;
    private final String declaredVersion;
    private final List<RubricMetric> metrics;
    private final Map<String, String> templates = new LinkedHashMap<>();
    private final String version;

    /**
     * @param id              rubric id (= task id)
     * @param declaredVersion the templates' file suffix, e.g. {@code v1}
     * @param metrics         the metrics asked, in the seed's order
     * @param modalities      modalities with a template
     */
    protected TemplateRubric(String id, String declaredVersion, List<RubricMetric> metrics, Set<String> modalities) {
        this.id = id;
        this.declaredVersion = declaredVersion;
        this.metrics = List.copyOf(metrics);
        for (String modality : new TreeSet<>(modalities)) {
            templates.put(modality, load(templateName(modality)));
        }
        this.version = declaredVersion + "-" + fingerprint();
    }

    /** Template resource name of a modality. Nav shares one name pattern across its four tasks. */
    protected String templateName(String modality) {
        return "rubric-" + id + "-" + modality + "-" + declaredVersion + ".txt";
    }

    /** The text and media inputs of one generation; throw with a user-facing reason when the seed's inputs are missing. */
    protected abstract RubricInputs inputs(GenerationEvent event, BenchmarkItem item) throws EvaluationException;

    @Override
    public String id() {
        return id;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public List<RubricMetric> metrics() {
        return metrics;
    }

    @Override
    public Set<String> modalities() {
        return templates.keySet();
    }

    @Override
    public JudgePrompt prompt(GenerationEvent event, BenchmarkItem item) throws EvaluationException {
        String modality = event.getModality();
        String template = templates.get(modality);
        if (template == null) {
            throw new EvaluationException("rubric '" + id + "' has no prompt for modality '" + modality
                    + "' (it has " + templates.keySet() + ")");
        }
        RubricInputs in = inputs(event, item);
        int user = template.indexOf("[user]");
        String systemPart = template.substring(template.indexOf("[system]") + "[system]".length(), user).strip();
        String userPart = template.substring(user + "[user]".length()).strip();
        String system = fill(systemPart, in) + "\n\n" + answerFormat(modality);

        List<JudgePrompt.Part> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String line : userPart.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("{{media:") && t.endsWith("}}")) {
                String slot = t.substring("{{media:".length(), t.length() - 2);
                List<JudgePrompt.Media> media = in.media(slot);
                if (!media.isEmpty()) {
                    flush(text, parts);
                    parts.addAll(media);
                }
                continue;
            }
            text.append(fill(line, in)).append('\n');
        }
        flush(text, parts);
        return new JudgePrompt(system, parts);
    }

    private static void flush(StringBuilder text, List<JudgePrompt.Part> parts) {
        String t = text.toString().strip();
        if (!t.isEmpty()) {
            parts.add(new JudgePrompt.Text(t));
        }
        text.setLength(0);
    }

    private String fill(String s, RubricInputs in) {
        Matcher m = PLACEHOLDER.matcher(s);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1).strip();
            String value = in.text().get(name);
            if (value == null) {
                throw new IllegalStateException("rubric " + id + ": no value for placeholder {{" + name + "}}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The answer format: one JSON object, one entry per metric with a score and a justification. */
    String answerFormat(String modality) {
        StringBuilder b = new StringBuilder();
        b.append("Answer with one JSON object and nothing else. It has exactly these keys, one per metric:\n");
        for (RubricMetric m : metricsFor(modality)) {
            b.append("- \"").append(m.name()).append("\": {\"score\": ")
                    .append(m.type() == RubricMetric.Type.BINARY ? "0 or 1" : "a number from 0 to 1")
                    .append(", \"justification\": one or two sentences}. ").append(m.description()).append('\n');
        }
        b.append("Judge only what you see; when unsure whether a requirement holds, score it as not met.");
        return b.toString();
    }

    @Override
    public Map<String, Object> answerSchema(String modality) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (RubricMetric m : metricsFor(modality)) {
            Map<String, Object> score = new LinkedHashMap<>();
            if (m.type() == RubricMetric.Type.BINARY) {
                score.put("type", "integer");
                score.put("enum", List.of(0, 1));
            } else {
                score.put("type", "number");
                score.put("minimum", 0);
                score.put("maximum", 1);
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("type", "object");
            entry.put("properties", Map.of("score", score, "justification", Map.of("type", "string")));
            entry.put("required", List.of("score", "justification"));
            entry.put("additionalProperties", false);
            properties.put(m.name(), entry);
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", new ArrayList<>(properties.keySet()));
        schema.put("additionalProperties", false);
        return schema;
    }

    @Override
    public RubricAnswer parse(String modality, String answerText) throws RubricAnswerException {
        JsonNode root = extractJson(answerText);
        Map<String, Double> values = new LinkedHashMap<>();
        Map<String, String> justifications = new LinkedHashMap<>();
        for (RubricMetric m : metrics) {
            if (!m.appliesTo(modality)) {
                values.put(m.name(), null);
                continue;
            }
            JsonNode entry = root.get(m.name());
            if (entry == null || entry.isNull()) {
                throw new RubricAnswerException("the answer has no value for '" + m.name() + "'");
            }
            JsonNode score = entry.isObject() ? entry.get("score") : entry;
            if (score == null || score.isNull()) {
                throw new RubricAnswerException("the answer has no score for '" + m.name() + "'");
            }
            values.put(m.name(), value(m, score));
            if (entry.isObject() && entry.hasNonNull("justification")) {
                justifications.put(m.name(), entry.get("justification").asText());
            }
        }
        return new RubricAnswer(values, justifications);
    }

    private static double value(RubricMetric m, JsonNode score) throws RubricAnswerException {
        double v;
        if (score.isBoolean()) {
            v = score.booleanValue() ? 1.0 : 0.0;
        } else if (score.isNumber()) {
            v = score.doubleValue();
        } else if (score.isTextual()) {
            String s = score.asText().strip().toLowerCase(Locale.ROOT);
            v = switch (s) {
                case "yes", "true" -> 1.0;
                case "no", "false" -> 0.0;
                default -> {
                    try {
                        yield Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new RubricAnswerException("'" + m.name() + "' has a score that is not a number: \"" + s + "\"");
                    }
                }
            };
        } else {
            throw new RubricAnswerException("'" + m.name() + "' has a score that is not a number");
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            throw new RubricAnswerException("'" + m.name() + "' has a score that is not a finite number");
        }
        if (m.type() == RubricMetric.Type.BINARY && v != 0.0 && v != 1.0) {
            throw new RubricAnswerException("'" + m.name() + "' is binary but the answer scored it " + v);
        }
        if (v < 0.0 || v > 1.0) {
            throw new RubricAnswerException("'" + m.name() + "' must be in [0, 1] but the answer scored it " + v);
        }
        return v;
    }

    /** The first JSON object in the text: the judge may wrap it in code fences or prose. */
    static JsonNode extractJson(String text) throws RubricAnswerException {
        if (text == null || text.isBlank()) {
            throw new RubricAnswerException("the answer is empty");
        }
        int start = text.indexOf('{');
        if (start < 0) {
            throw new RubricAnswerException("the answer holds no JSON object");
        }
        int depth = 0;
        boolean inString = false;
        char quote = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    inString = false;
                }
            } else if (c == '"' || c == '\'') {
                inString = true;
                quote = c;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                try {
                    JsonNode node = LENIENT.readTree(text.substring(start, i + 1));
                    if (node.isObject()) {
                        return node;
                    }
                } catch (IOException e) {
                    throw new RubricAnswerException("the answer's JSON does not parse: " + JsonErrors.describe(e));
                }
            }
        }
        throw new RubricAnswerException("the answer's JSON object is not closed (truncated answer?)");
    }

    // ---- helpers for subclasses ----

    /** The generation's output artifact, or its absence as a user-facing error (text answers have none). */
    protected static ArtifactRef output(GenerationEvent event) throws EvaluationException {
        return ArtifactResolver.find(event.getArtifacts(), "output")
                .orElseThrow(() -> new EvaluationException(event.getTask() + " generation has no artifact with role 'output'"));
    }

    protected static java.util.Optional<ArtifactRef> artifact(BenchmarkItem item, String role) {
        return ArtifactResolver.find(item.getArtifacts(), role);
    }

    protected static String orNone(String s) {
        return s == null || s.isBlank() ? "(not given)" : s.strip();
    }

    private String load(String name) {
        String text = resource(name);
        Matcher m = Pattern.compile("\\{\\{include ([A-Za-z0-9_.\\-]+)}}").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(resource(m.group(1)).strip()));
        }
        m.appendTail(out);
        StringBuilder kept = new StringBuilder();
        for (String line : out.toString().split("\n", -1)) {
            if (!line.startsWith("##")) {
                kept.append(line).append('\n');
            }
        }
        String t = kept.toString();
        if (!t.contains("[system]") || !t.contains("[user]") || t.indexOf("[system]") > t.indexOf("[user]")) {
            throw new IllegalStateException("rubric template " + name + " needs a [system] then a [user] section");
        }
        return t;
    }

    private String resource(String name) {
        try (InputStream in = getClass().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("rubric template " + name + " is missing next to " + getClass().getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String fingerprint() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(FORMAT_VERSION.getBytes(StandardCharsets.UTF_8));
            md.update(metrics.toString().getBytes(StandardCharsets.UTF_8));
            for (var e : templates.entrySet()) {
                md.update((e.getKey() + "\u0000" + e.getValue()).getBytes(StandardCharsets.UTF_8));
            }
            return HexFormat.of().formatHex(md.digest(), 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
