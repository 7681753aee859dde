package io.mmgr.stream.cli;

import java.util.List;
import java.util.ServiceLoader;

/**
 * Subcommands that live outside the app (the lab's {@code demo} and {@code bench load}, {@code judge},
 * {@code restart}), found through {@link ServiceLoader} when {@link Main} builds the command line: a build
 * without the lab has none of them. Task families bring their commands through {@code TaskFamily} instead.
 */
public interface CommandPlugin {

    /** Under {@code mmgr} itself. */
    String TOP = "mmgr";

    /** Under {@code mmgr bench}. */
    String BENCH = "bench";

    /** A picocli command object (annotated with {@code @Command}) and the command it goes under: {@link #TOP} or {@link #BENCH}. */
    record Subcommand(String parent, Object command) {
    }

    /** New instances of its commands. */
    List<Subcommand> commands();

    /** The plugins {@code loader} finds. */
    static List<CommandPlugin> find(ClassLoader loader) {
        return ServiceLoader.load(CommandPlugin.class, loader).stream().map(ServiceLoader.Provider::get).toList();
    }
}
