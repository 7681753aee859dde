package io.mmgr.stream.judge;

import io.mmgr.stream.judge.protocol.AzureOpenAiClient;

/**
 * Where an Azure OpenAI judge's requests go: {@code <endpoint>/openai/deployments/<deployment>/chat/completions
 * ?api-version=<apiVersion>} (the endpoint is the judge's base URL).
 *
 * @param deployment the deployment's name; null: the judge model's name (deployments are usually named after it)
 * @param apiVersion the {@code api-version} query parameter
 */
public record AzureSettings(String deployment, String apiVersion) {

    public AzureSettings {
        deployment = deployment == null || deployment.isBlank() ? null : deployment.strip();
        apiVersion = apiVersion == null || apiVersion.isBlank() ? AzureOpenAiClient.DEFAULT_API_VERSION : apiVersion.strip();
    }

    public static AzureSettings defaults() {
        return new AzureSettings(null, null);
    }

    /** The deployment the requests go to: the one named, else the model's name. */
    public String deploymentFor(String model) {
        return deployment != null ? deployment : model;
    }
}
