package io.mmgr.stream.judge;

/**
 * What calls cost and what a run may spend.
 *
 * @param inputUsdPerMTok  US$ per million input tokens
 * @param outputUsdPerMTok US$ per million output tokens (thinking included, as providers bill it)
 * @param budgetUsdPerRun  spend allowed per run, null for unlimited; once spent, requests wait
 * @param batchDiscount    what a batch-lane request costs as a share of its realtime price ({@code --judge-batch-discount});
 *                         0.5 by default, as OpenAI's Batch API, Gemini's Batch Mode and Anthropic's Message Batches all bill
 */
public record PricingSettings(double inputUsdPerMTok, double outputUsdPerMTok, Double budgetUsdPerRun, double batchDiscount) {

    /** The batch price as a share of the realtime one at all three providers (their pricing pages: 50%). */
    public static final double DEFAULT_BATCH_DISCOUNT = 0.5;

    public PricingSettings(double inputUsdPerMTok, double outputUsdPerMTok, Double budgetUsdPerRun) {
        this(inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, DEFAULT_BATCH_DISCOUNT);
    }

    public PricingSettings {
        if (!(batchDiscount > 0 && batchDiscount <= 1)) {
            throw new IllegalArgumentException("the judge's batch discount must be in (0, 1], not " + batchDiscount);
        }
        if (inputUsdPerMTok < 0 || outputUsdPerMTok < 0) {
            throw new IllegalArgumentException("judge prices must not be negative");
        }
        if (budgetUsdPerRun != null && budgetUsdPerRun < 0) {
            throw new IllegalArgumentException("judge budget must not be negative");
        }
    }

    public static PricingSettings free() {
        return new PricingSettings(0, 0, null);
    }

    public static PricingSettings of(double inputUsdPerMTok, double outputUsdPerMTok, Double budgetUsdPerRun) {
        return new PricingSettings(inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun);
    }

    /** The same prices with another batch discount. */
    public PricingSettings withBatchDiscount(double discount) {
        return new PricingSettings(inputUsdPerMTok, outputUsdPerMTok, budgetUsdPerRun, discount);
    }

    /** Cost of tokens answered in a batch, in US dollars. */
    public double batchCost(long inputTokens, long outputTokens) {
        return cost(inputTokens, outputTokens) * batchDiscount;
    }

    /** Cost of a call in US dollars. */
    public double cost(long inputTokens, long outputTokens) {
        return inputTokens * inputUsdPerMTok / 1e6 + outputTokens * outputUsdPerMTok / 1e6;
    }
}
