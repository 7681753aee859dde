package io.mmgr.stream.judge;

/**
 * What calls cost and what a run may spend.
 *
 * @param inputUsdPerMTok  US$ per million input tokens
 * @param outputUsdPerMTok US$ per million output tokens (thinking included, as providers bill it)
 * @param budgetUsdPerRun  spend allowed per run, null for unlimited; once spent, requests wait
 */
public record PricingSettings(double inputUsdPerMTok, double outputUsdPerMTok, Double budgetUsdPerRun) {

    public PricingSettings {
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

    /** Cost of a call in US dollars. */
    public double cost(long inputTokens, long outputTokens) {
        return inputTokens * inputUsdPerMTok / 1e6 + outputTokens * outputUsdPerMTok / 1e6;
    }
}
