package io.mmgr.stream.worker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Who this process is to its consumer groups and transaction coordinators, stable across restarts.
 *
 * <p>{@link #id()} names the process: generated once and kept in the data directory
 * ({@value #FILE}), or given. It makes the workers' {@code transactional.id}s stable, so that a
 * restarted process aborts the transaction its killed predecessor left open at once (instead of
 * read_committed readers waiting for the transaction timeout). With static membership it is also the
 * {@code group.instance.id} of every consumer group the process joins (instance ids are per group,
 * so one id serves all of them; Kafka Streams appends its thread index): a restarted member takes its
 * old place and partitions at once, without waiting for the dead member's session to expire and
 * without a rebalance.
 *
 * <p>The trade-off of static membership: a member that dies for good keeps its partitions until its
 * session times out ({@code session.timeout.ms}, 45 s by default), as a dynamic one does; and two live
 * processes must never share an id (the second fences the first), so each needs its own data
 * directory or its own given id.
 */
public record MemberIdentity(String id, boolean staticMembership) {

    public static final String FILE = "instance-id";
    /** Option value: the data directory's id, static membership. */
    public static final String AUTO = "auto";
    /** Option value: the data directory's id for transactions only, dynamic membership. */
    public static final String NONE = "none";

    /** What Kafka accepts in a group.instance.id (and we in a transactional.id suffix). */
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    public MemberIdentity {
        if (!VALID.matcher(id).matches()) {
            throw new IllegalArgumentException("an instance id is 1-200 characters of letters, digits, '.', '_' and '-', got '"
                    + id + "'");
        }
    }

    /**
     * @param dataDir where the generated id is kept
     * @param option  {@value #AUTO}, {@value #NONE}, an explicit id, or empty for {@code byDefault}
     * @param byDefault the option used when none is given
     */
    public static MemberIdentity resolve(Path dataDir, Optional<String> option, String byDefault) {
        String o = option.map(String::trim).filter(s -> !s.isEmpty()).orElse(byDefault);
        return switch (o) {
            case AUTO -> new MemberIdentity(stored(dataDir), true);
            case NONE -> new MemberIdentity(stored(dataDir), false);
            default -> new MemberIdentity(o, true);
        };
    }

    /** The group.instance.id to configure, when membership is static. */
    public Optional<String> groupInstanceId() {
        return staticMembership ? Optional.of(id) : Optional.empty();
    }

    /** The transactional.id of a worker in {@code group}: stable per process and group. */
    public String transactionalId(String group) {
        return group + "-" + id;
    }

    /** The id kept in {@code dataDir}, generated and written (atomically) on first use. */
    static String stored(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        try {
            if (Files.exists(file)) {
                String id = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (VALID.matcher(id).matches()) {
                    return id;
                }
                throw new IllegalStateException(file + " does not hold a valid instance id; delete it to generate a new one");
            }
            Files.createDirectories(dataDir);
            String id = "mmgr-" + UUID.randomUUID();
            Path tmp = Files.createTempFile(dataDir, FILE, ".tmp");
            Files.writeString(tmp, id + "\n", StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the instance id in " + file, e);
        }
    }
}
