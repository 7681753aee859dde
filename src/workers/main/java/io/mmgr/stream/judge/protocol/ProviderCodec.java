package io.mmgr.stream.judge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;

/**
 * What a protocol's realtime client knows about its wire format, for other lanes to reuse rather than copy:
 * the batch lane ({@code io.mmgr.stream.judge.batch}) puts the same request body in a batch line and reads a
 * batch result's body with the same parser and error classes, so a batched request is judged exactly as a
 * realtime one. Every {@link ProviderClient} of this package implements it.
 */
public interface ProviderCodec {

    JudgeProtocol protocol();

    /** The endpoint's base URL, without a trailing slash (e.g. {@code https://api.openai.com/v1}). */
    URI baseUrl();

    /** The realtime request's JSON body for a call (OpenAI chat body, Gemini GenerateContentRequest, Anthropic Messages). */
    ObjectNode requestBody(ProviderCall call) throws IOException;

    /** The answer in a successful response body (HTTP 200 or a batch result's body); throws MALFORMED or REFUSED. */
    ProviderReply answer(JsonNode body) throws ProviderException;

    /** A non-200 answer classified as the realtime lane does (kind, retry hint, redacted snippet). */
    ProviderException failure(int status, HttpHeaders headers, String body);

    /** Adds the key's headers (and a protocol's required version header) to a request for this endpoint. */
    HttpRequest.Builder authorize(HttpRequest.Builder request);

    /** The text with the API key blotted out, for messages and logs. */
    String redact(String text);
}
