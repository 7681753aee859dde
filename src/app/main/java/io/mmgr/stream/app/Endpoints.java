package io.mmgr.stream.app;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a running scorer listens, written to its data directory so that {@code publish},
 * {@code leaderboard} and friends find it without flags.
 */
public record Endpoints(String bootstrapServers, String registryUrl, String topicPrefix) {

    public static final String FILE = "endpoints.properties";

    public void write(Path dataDir) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrapServers);
        p.setProperty("schema.registry.url", registryUrl);
        p.setProperty("topic.prefix", topicPrefix);
        try {
            Files.createDirectories(dataDir);
            Path tmp = Files.createTempFile(dataDir, "endpoints", ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp)) {
                p.store(w, "written by bin/mmgr run");
            }
            Files.move(tmp, dataDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dataDir.resolve(FILE), e);
        }
    }

    public static Optional<Endpoints> read(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return Optional.of(new Endpoints(p.getProperty("bootstrap.servers"), p.getProperty("schema.registry.url"),
                p.getProperty("topic.prefix", "mmgr.")));
    }
}
