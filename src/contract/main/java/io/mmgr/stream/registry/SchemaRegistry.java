package io.mmgr.stream.registry;

import java.util.Optional;
import org.apache.avro.Schema;

/**
 * What the serdes need of a schema registry: register a schema under a subject, look one up, and
 * fetch a writer schema by its global id. {@link SchemaRegistryClient} speaks Confluent's REST API
 * to a real registry; tests of topologies may use an in-memory one instead.
 */
public interface SchemaRegistry extends AutoCloseable {

    /**
     * The global id of {@code schema} under {@code subject}, registering it if needed.
     *
     * @throws RegistryException e.g. status 409 when the subject's compatibility level refuses it
     */
    int register(String subject, Schema schema);

    /** @throws RegistryException status 404 when no schema has this id */
    Schema schemaById(int id);

    /** The id of {@code schema} if it is registered under {@code subject}. */
    Optional<Integer> lookup(String subject, Schema schema);

    /** Where the registry is, for messages (never with credentials). */
    String baseUrl();

    @Override
    void close();
}
