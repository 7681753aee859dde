package io.mmgr.stream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.mmgr.stream.tasks.TaskFamily;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code mmgr eval <task>} and {@code mmgr bench generate <family>} are the families' own commands, found
 * through the SPI ({@link TaskFamily#evalCommands()}, {@link TaskFamily#generateCommands()}): the command
 * line offers exactly what the installed families give, and only the frechet command is the app's own.
 */
@Tag("unit")
class FamilyCommandsTest {

    static Set<String> names(List<Object> commands) {
        Set<String> out = new TreeSet<>();
        for (Object c : commands) {
            CommandLine.Command annotation = c.getClass().getAnnotation(CommandLine.Command.class);
            assertThat(annotation).as("%s is a picocli command", c.getClass()).isNotNull();
            assertThat(out.add(annotation.name())).as("command name %s given twice", annotation.name()).isTrue();
        }
        return out;
    }

    @Test
    void theCommandLineOffersWhatTheFamiliesGive() {
        List<Object> evals = new ArrayList<>();
        List<Object> generators = new ArrayList<>();
        for (TaskFamily f : TaskFamily.installed()) {
            evals.addAll(f.evalCommands());
            generators.addAll(f.generateCommands());
            // commands are new at each call: picocli fills their fields
            f.evalCommands().forEach(c -> assertThat(f.evalCommands()).noneMatch(d -> d == c));
        }
        CommandLine cl = Main.commandLine();
        Map<String, CommandLine> eval = cl.getSubcommands().get("eval").getSubcommands();
        Set<String> evalNames = names(evals);
        evalNames.add("fid");
        assertThat(eval.keySet()).containsExactlyInAnyOrderElementsOf(evalNames);
        assertThat(evalNames).contains("maze", "sudoku", "arc", "nav", "aitw", "visualwebbench");
        assertThat(cl.getSubcommands().get("bench").getSubcommands().get("generate").getSubcommands().keySet())
                .containsExactlyInAnyOrderElementsOf(names(generators)).contains("maze", "sudoku", "arc");
    }

    @Test
    void aFamilyListGivenByTheCallerIsWhatIsOffered() {
        CommandLine none = Main.commandLine(List.of());
        assertThat(none.getSubcommands().get("eval").getSubcommands().keySet()).containsExactly("fid");
        assertThat(none.getSubcommands().get("bench").getSubcommands().get("generate").getSubcommands()).isEmpty();
        // without a family nothing serves eval maze
        StringWriter err = new StringWriter();
        none.setErr(new PrintWriter(err));
        assertThat(none.execute("eval", "maze")).isEqualTo(2);
        assertThat(err.toString()).contains("maze");
    }

    @Test
    void aGeneratorThatPublishesGetsTheAppsConnectionOptions() {
        CommandLine maze = Main.commandLine().getSubcommands().get("bench").getSubcommands().get("generate").getSubcommands().get("maze");
        assertThat(maze.getCommandSpec().findOption("--publish")).isNotNull();
        assertThat(maze.getCommandSpec().findOption("--bootstrap-servers")).isNotNull();
        assertThat(maze.getCommandSpec().findOption("--schema-registry-url")).isNotNull();
        CommandLine arc = Main.commandLine().getSubcommands().get("bench").getSubcommands().get("generate").getSubcommands().get("arc");
        assertThat(arc.getCommandSpec().findOption("--bootstrap-servers")).isNull();
    }
}
