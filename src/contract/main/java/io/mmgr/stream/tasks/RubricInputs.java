package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.ArtifactRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The values a rubric template is filled with: text by placeholder name, media by slot name. */
public final class RubricInputs {

    private final Map<String, String> text = new LinkedHashMap<>();
    private final Map<String, List<JudgePrompt.Media>> media = new LinkedHashMap<>();

    public RubricInputs text(String name, String value) {
        text.put(name, value);
        return this;
    }

    public RubricInputs media(String slot, String label, ArtifactRef artifact) {
        media.computeIfAbsent(slot, k -> new ArrayList<>()).add(new JudgePrompt.Media(label, artifact, false));
        return this;
    }

    /** The generation being judged. */
    public RubricInputs generation(String slot, ArtifactRef artifact) {
        media.computeIfAbsent(slot, k -> new ArrayList<>()).add(new JudgePrompt.Media("generation", artifact, true));
        return this;
    }

    Map<String, String> text() {
        return text;
    }

    List<JudgePrompt.Media> media(String slot) {
        return media.getOrDefault(slot, List.of());
    }
}
