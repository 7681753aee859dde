package io.mmgr.stream.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.avro.BenchmarkItem;
import io.mmgr.stream.avro.GenerationEvent;
import io.mmgr.stream.avro.GroundTruth;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * A ground truth as a producer on a released {@code GroundTruth} version wrote it and the scorer reads it
 * now: encoded with {@code schemas/released/GroundTruth.v<N>.avsc} (beside the released types it names),
 * decoded into the current schema. For the families' tests that items of before (the shared fields, no
 * payload) score as their payload twins do ({@link #assertScoredAlike}).
 */
public final class ReleasedGroundTruth {

    private ReleasedGroundTruth() {
    }

    /**
     * {@code gt} written with released version {@code version} and read back with the current schema.
     *
     * @throws IllegalArgumentException when {@code gt} sets a field that version does not have (a payload
     *                                  in v2): such a record cannot have been written by it
     */
    public static GroundTruth writtenWith(int version, GroundTruth gt) {
        Schema writer = released(version);
        GenericData.Record old = new GenericData.Record(writer);
        for (Schema.Field f : GroundTruth.getClassSchema().getFields()) {
            Schema.Field w = writer.getField(f.name());
            Object v = gt.get(f.pos());
            if (w != null) {
                old.put(w.pos(), v);
            } else if (v != null) {
                throw new IllegalArgumentException("GroundTruth v" + version + " has no field " + f.name() + " (set to " + v + ")");
            }
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            BinaryEncoder out = EncoderFactory.get().binaryEncoder(bytes, null);
            // the nested records (Pose, UiAction) are the contract's classes: SpecificData reads their fields
            new SpecificDatumWriter<GenericData.Record>(writer, SpecificData.get()).write(old, out);
            out.flush();
            BinaryDecoder in = DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null);
            return new SpecificDatumReader<GroundTruth>(writer, GroundTruth.getClassSchema()).read(null, in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Scores {@code event} against {@code now} and {@code before} (one ground truth written two ways) as the stream
     * does, and asserts the same verdict: rejection, gated sample, unavailable parts and each part's metrics and
     * diagnostics (its result record also carries timings). Returns {@code now}'s result.
     */
    public static SampleScorer.Result assertScoredAlike(SampleScorer scorer, GenerationEvent event, BenchmarkItem now,
                                                        BenchmarkItem before, ArtifactResolver artifacts, String what) {
        SampleScorer.Result a = scorer.score(event, now, artifacts);
        SampleScorer.Result b = scorer.score(event, before, artifacts);
        assertThat(b.rejection()).as(what).isEqualTo(a.rejection());
        assertThat(b.sample()).as(what).isEqualTo(a.sample());
        assertThat(b.unavailable()).as(what).isEqualTo(a.unavailable());
        assertThat(outcomes(b)).as(what).isEqualTo(outcomes(a));
        return a;
    }

    private static List<List<Map<String, ?>>> outcomes(SampleScorer.Result r) {
        return r.evaluations().stream().map(p -> p.outcome() == null ? List.<Map<String, ?>>of(Map.of("error", String.valueOf(p.error())))
                : List.<Map<String, ?>>of(p.outcome().metrics(), p.outcome().diagnostics())).toList();
    }

    private static Schema released(int version) {
        Path dir = Path.of("schemas", "released");
        try {
            Schema.Parser parser = new Schema.Parser();
            // the named types GroundTruth refers to, as released
            parser.parse(dir.resolve("Pose.v1.avsc").toFile());
            parser.parse(dir.resolve("UiAction.v1.avsc").toFile());
            return parser.parse(dir.resolve("GroundTruth.v" + version + ".avsc").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
