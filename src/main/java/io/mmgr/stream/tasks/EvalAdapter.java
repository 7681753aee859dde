package io.mmgr.stream.tasks;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * A family's input adapter for its {@code mmgr eval <command>}: one case, a JSON object (a batch line,
 * or the command's flags under the same names), becomes the generation event and benchmark item the
 * stream would get for it. The family says what a case means; the CLI keeps the flags and the printing.
 * A family lists its adapters in {@link TaskFamily#evalAdapters()}.
 *
 * @param command          the {@code eval} subcommand it serves
 * @param evaluator        the evaluator whose part the command prints
 * @param evaluatorFactory that evaluator's factory: the command's scorer builds it alone (OCR engines
 *                         and decoders are costly)
 * @param reader           what a case means
 */
public record EvalAdapter(String command, String evaluator, Supplier<DeterministicEvaluator> evaluatorFactory,
                          Reader reader) {

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

    /** The event and item of one case (see {@link Reader#sample}). */
    public EvalSample sample(EvalCase c) throws EvaluationException, IOException {
        return reader.sample(c);
    }
}
