package io.mmgr.stream.tasks;

import io.mmgr.stream.avro.GroundTruth;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;

/**
 * A family's own ground truth in {@code GroundTruth.family} and {@code payload}: a record of a schema the
 * family keeps in its folder, so a new family, or a new field of one, needs no edit of the shared
 * {@code GroundTruth.avsc}. The payload is Avro's single-object encoding, which names the writer schema by
 * its fingerprint: a payload of any version the family released is read into its current schema.
 *
 * <p>The schema files are resources next to {@code anchor}: {@code <Name>.avsc} (current) and
 * {@code released/<Name>.v1.avsc}, {@code v2}, ... (never edited nor renumbered; the current schema must
 * read each, which {@code SchemaEvolutionTest} checks for every family's folder as for {@code schemas/}).
 */
public final class FamilyPayload {

    private final String family;
    private final Schema schema;
    private final List<Schema> released;
    private final BinaryMessageEncoder<GenericRecord> encoder;
    private final BinaryMessageDecoder<GenericRecord> decoder;

    private FamilyPayload(String family, Schema schema, List<Schema> released) {
        this.family = family;
        this.schema = schema;
        this.released = List.copyOf(released);
        this.encoder = new BinaryMessageEncoder<>(GenericData.get(), schema);
        this.decoder = new BinaryMessageDecoder<>(GenericData.get(), schema);
        released.forEach(decoder::addSchema);
    }

    /**
     * The payload of {@code family} whose schema is {@code name}: {@code name.avsc} and its released
     * versions among {@code anchor}'s resources.
     *
     * @throws IllegalStateException when the schema or its first released version is missing or malformed
     */
    public static FamilyPayload load(String family, Class<?> anchor, String name) {
        Schema current = parse(anchor, name + ".avsc")
                .orElseThrow(() -> new IllegalStateException(family + ": no payload schema " + name + ".avsc beside " + anchor.getName()));
        List<Schema> released = new ArrayList<>();
        for (int v = 1; ; v++) {
            Optional<Schema> s = parse(anchor, "released/" + name + ".v" + v + ".avsc");
            if (s.isEmpty()) {
                break;
            }
            released.add(s.get());
        }
        if (released.isEmpty()) {
            throw new IllegalStateException(family + ": " + name + ".avsc has no released version (released/" + name + ".v1.avsc)");
        }
        return new FamilyPayload(family, current, released);
    }

    private static Optional<Schema> parse(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(new Schema.Parser().parse(in));
        } catch (IOException e) {
            throw new UncheckedIOException(anchor.getPackageName() + "/" + resource + ": " + e.getMessage(), e);
        }
    }

    public String family() {
        return family;
    }

    /** The current schema: what {@link #read} returns and {@link #write} takes. */
    public Schema schema() {
        return schema;
    }

    /** The released versions, oldest first. */
    public List<Schema> released() {
        return released;
    }

    /** Sets {@code record} (of the current schema) as the ground truth's payload of this family. */
    public GroundTruth.Builder write(GroundTruth.Builder gt, GenericRecord record) {
        try {
            return gt.setFamily(family).setPayload(encoder.encode(record));
        } catch (IOException | AvroRuntimeException e) {
            throw new IllegalArgumentException(family + " payload: " + e.getMessage(), e);
        }
    }

    /**
     * The family's ground truth from {@code gt}'s payload, or from the shared fields where it has none (items
     * written before the family had a payload); a missing ground truth reads as an empty one.
     *
     * @throws EvaluationException when the payload is not a record of a version this family released
     */
    public <T> T read(GroundTruth gt, Function<GenericRecord, T> fromPayload, Function<GroundTruth, T> fromShared)
            throws EvaluationException {
        GroundTruth g = gt == null ? GroundTruth.newBuilder().build() : gt;
        Optional<GenericRecord> r = read(g);
        return r.isPresent() ? fromPayload.apply(r.get()) : fromShared.apply(g);
    }

    /**
     * The ground truth's payload read into the current schema; empty when it carries none of this family's
     * (older items keep their ground truth in the shared fields).
     *
     * @throws EvaluationException when the payload is not a record of a version this family released
     */
    public Optional<GenericRecord> read(GroundTruth gt) throws EvaluationException {
        if (gt == null || gt.getPayload() == null || !family.equals(gt.getFamily())) {
            return Optional.empty();
        }
        return Optional.of(read(gt.getPayload()));
    }

    /**
     * A payload of this family read into the current schema; {@code payload}'s position is left as it is.
     *
     * @throws EvaluationException when it is not a record of a version this family released
     */
    public GenericRecord read(ByteBuffer payload) throws EvaluationException {
        try {
            return decoder.decode(payload.duplicate());
        } catch (IOException | AvroRuntimeException e) {
            throw new EvaluationException("benchmark item's " + family + " ground truth (payload) cannot be read: " + e.getMessage());
        }
    }
}
