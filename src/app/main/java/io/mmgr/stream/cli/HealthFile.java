package io.mmgr.stream.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The scorer's Kafka Streams state in a file of its data directory, rewritten on every change, for
 * container health checks (the scorer serves no HTTP): {@code grep -qE 'RUNNING|REBALANCING' FILE}.
 */
final class HealthFile {

    static final String NAME = "scorer.state";

    private final Path file;

    HealthFile(Path file) {
        this.file = file;
    }

    /** Atomically replaces the file's content; a failure only costs the health check, never the scorer. */
    synchronized void write(String state) {
        try {
            Files.createDirectories(file.getParent());
            Path tmp = Files.createTempFile(file.getParent(), NAME, ".tmp");
            Files.writeString(tmp, state + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("warning: cannot write " + file + ": " + e.getMessage());
        }
    }
}
