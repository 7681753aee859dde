package io.mmgr.stream.tasks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A family's input adapter for its {@code mmgr eval <command>}: one case, a JSON object (a batch line,
 * or the command's flags under the same names), becomes the generation event and benchmark item the
 * stream would get for it. The family says what a case means; the CLI keeps the flags and the printing.
 * Where several lines make one sample (an episode's steps, a suite's trials), the adapter groups them
 * ({@link Grouping}). A family lists its adapters in {@link TaskFamily#evalAdapters()}.
 *
 * @param command          the {@code eval} subcommand it serves
 * @param evaluator        the evaluator whose part the command prints
 * @param evaluatorFactory that evaluator's factory: the command's scorer builds it alone (OCR engines
 *                         and decoders are costly)
 * @param reader           what a case means
 * @param grouping         what the cases of a file mean together; null when each case is one sample
 */
public record EvalAdapter(String command, String evaluator, Supplier<DeterministicEvaluator> evaluatorFactory,
                          Reader reader, Grouping grouping) {

    /** An adapter whose every case is one sample. */
    public EvalAdapter(String command, String evaluator, Supplier<DeterministicEvaluator> evaluatorFactory,
                       Reader reader) {
        this(command, evaluator, evaluatorFactory, reader, null);
    }

    /** An adapter whose samples are groups of cases (it reads no case alone). */
    public static EvalAdapter grouped(String command, String evaluator,
                                      Supplier<DeterministicEvaluator> evaluatorFactory, Grouping grouping) {
        return new EvalAdapter(command, evaluator, evaluatorFactory, c -> {
            throw c.error("'" + command + "' reads its cases together, not one at a time");
        }, grouping);
    }

    /** Reads one case. */
    @FunctionalInterface
    public interface Reader {
        /**
         * The event and item of one case.
         *
         * @throws IllegalArgumentException a field is missing or malformed, or a file it names is not there
         * @throws EvaluationException      the ground truth the case names cannot be read as the task needs it
         * @throws IOException              a file the case names cannot be read
         */
        EvalSample sample(EvalCase c) throws EvaluationException, IOException;
    }

    /** Reads the cases of one file into samples, each made of one or more of them. */
    @FunctionalInterface
    public interface Grouping {
        /**
         * The samples of these cases, in the order of their first case.
         *
         * @throws IllegalArgumentException a field of a case is missing or malformed, or the cases of a
         *                                  group do not fit together ({@link EvalCase#error} names the case)
         */
        List<Group> samples(List<EvalCase> cases) throws EvaluationException, IOException;

        /**
         * The same samples, handed to {@code out} in order. By default once every case is read, as a group
         * is only whole then; a grouping whose case is its sample hands each over before it reads the next,
         * so what the command prints of a sample comes before the error of a later case.
         */
        default void samples(List<EvalCase> cases, Consumer<Group> out) throws EvaluationException, IOException {
            samples(cases).forEach(out);
        }
    }

    /**
     * One sample and where it came from, for an error of the command that names it.
     *
     * @param key    what names it among the file's samples of its task (an episode id, a robot task)
     * @param sample its event and item
     * @param line   the line of its first case; 0 when its cases are not lines of a file
     */
    public record Group(String key, EvalSample sample, int line) {

        /** A sample not read from the lines of a file. */
        public Group(String key, EvalSample sample) {
            this(key, sample, 0);
        }
    }

    /** The event and item of one case (see {@link Reader#sample}). */
    public EvalSample sample(EvalCase c) throws EvaluationException, IOException {
        return reader.sample(c);
    }

    /**
     * The samples of a file's cases: the adapter's grouping, or one sample per case keyed by its line.
     *
     * @see Grouping#samples
     */
    public List<Group> samples(List<EvalCase> cases) throws EvaluationException, IOException {
        List<Group> out = new ArrayList<>(cases.size());
        samples(cases, out::add);
        return out;
    }

    /**
     * The same samples handed to {@code out} in order, each case read alone handed over before the next
     * is read ({@link Grouping#samples(List, Consumer)}).
     */
    public void samples(List<EvalCase> cases, Consumer<Group> out) throws EvaluationException, IOException {
        if (grouping != null) {
            grouping.samples(cases, out);
            return;
        }
        for (EvalCase c : cases) {
            out.accept(new Group("line-" + c.line(), reader.sample(c), c.line()));
        }
    }
}
