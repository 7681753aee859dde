package io.mmgr.stream.registry;

import io.mmgr.stream.embedded.registry.ApiError;
import io.mmgr.stream.embedded.registry.CompatibilityLevel;
import io.mmgr.stream.embedded.registry.RegistryServer;
import io.mmgr.stream.embedded.registry.RegistryState;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * A schema registry in this JVM for topology tests: the state of our own {@link RegistryServer}
 * (same ids, same compatibility rules, BACKWARD by default) without its HTTP layer, its errors
 * turned into the {@link RegistryException}s the HTTP client would raise. Tests of the registry
 * itself and of the wire stay on the real server.
 */
public final class InMemorySchemaRegistry implements SchemaRegistry {

    private final RegistryState state = RegistryState.inMemory();

    /**
     * Compatibility NONE: for stores outside a topology (MockProcessorContext), whose serdes all write
     * to one made-up changelog topic and so share a subject.
     */
    public InMemorySchemaRegistry withoutCompatibilityChecks() {
        state.globalLevel(CompatibilityLevel.NONE);
        return this;
    }

    @Override
    public int register(String subject, Schema schema) {
        try {
            return state.register(subject, schema).id();
        } catch (ApiError e) {
            throw error(e);
        }
    }

    @Override
    public Schema schemaById(int id) {
        return state.schema(id).orElseThrow(() -> new RegistryException(404, ApiError.SCHEMA_NOT_FOUND, null,
                "unknown schema id " + id + " at " + baseUrl()));
    }

    @Override
    public Optional<Integer> lookup(String subject, Schema schema) {
        try {
            return Optional.of(state.lookup(subject, schema).id());
        } catch (ApiError e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw error(e);
        }
    }

    @Override
    public String baseUrl() {
        return "in-memory registry";
    }

    @Override
    public void close() {
        state.close();
    }

    private RegistryException error(ApiError e) {
        return new RegistryException(e.status(), e.errorCode(), e.getMessage(), e.getMessage() + " (" + baseUrl() + ")");
    }
}
