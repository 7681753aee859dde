package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.ArtifactRef;
import io.mmgr.stream.contract.CostClass;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one media-type rule the pixel evaluators share: the declared type first, the event's modality only when it says neither. */
@Tag("unit")
class MediaKindTest {

    static ArtifactRef typed(String mediaType) {
        ArtifactRef a = new ArtifactRef();
        a.setRole("output");
        a.setUri("file:///x");
        a.setMediaType(mediaType);
        return a;
    }

    @Test
    void theDeclaredTypeDecidesWhateverTheModalitySays() {
        assertThat(MediaKind.of(typed("video/mp4"), "image")).isEqualTo(MediaKind.VIDEO);
        assertThat(MediaKind.of(typed("VIDEO/WEBM"), null)).isEqualTo(MediaKind.VIDEO);
        assertThat(MediaKind.of(typed("image/png"), "video")).isEqualTo(MediaKind.IMAGE);
        assertThat(MediaKind.of(typed("Image/JPEG"))).isEqualTo(MediaKind.IMAGE);
    }

    @Test
    void aTypeThatNamesNeitherFallsBackToTheModalityWhenOneIsGiven() {
        assertThat(MediaKind.of(typed("application/octet-stream"), "video")).isEqualTo(MediaKind.VIDEO);
        assertThat(MediaKind.of(typed(null), "image")).isEqualTo(MediaKind.IMAGE);
        assertThat(MediaKind.of(typed("application/octet-stream"), "text")).isEqualTo(MediaKind.OTHER);
        assertThat(MediaKind.of(typed("application/octet-stream"))).as("no modality: the type alone").isEqualTo(MediaKind.OTHER);
        assertThat(MediaKind.of(typed("application/json"), null).isMedia()).isFalse();
    }

    @Test
    void onlyAVideoCostsAVideoDecode() {
        assertThat(MediaKind.VIDEO.costClass()).isEqualTo(CostClass.VIDEO);
        assertThat(MediaKind.IMAGE.costClass()).isEqualTo(CostClass.IMAGE);
        assertThat(MediaKind.OTHER.costClass()).as("refused at precheck; never queued as a video").isEqualTo(CostClass.IMAGE);
    }
}
