package io.mmgr.stream.judge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The provider client reads at most {@link ProviderClient#MAX_BODY_BYTES} of a response and parses
 * provider envelopes within read constraints: bodies built here byte by byte, served on loopback.
 */
@Tag("unit")
class ResponseLimitsTest {

    HttpServer server;
    final AtomicReference<byte[]> body = new AtomicReference<>();
    final AtomicReference<Long> declared = new AtomicReference<>();
    final AtomicLong written = new AtomicLong();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] b = body.get();
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, declared.get() != null ? declared.get() : b.length);
            try (OutputStream out = ex.getResponseBody()) {
                for (int off = 0; off < b.length; off += 8192) {
                    out.write(b, off, Math.min(8192, b.length - off));
                    written.addAndGet(Math.min(8192, b.length - off));
                }
            } catch (java.io.IOException e) {
                // the client stopped reading
            }
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    OpenAiChatClient client() {
        return new OpenAiChatClient(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1"), ApiKey.none(),
                Duration.ofSeconds(20), StructuredOutput.NONE);
    }

    static ProviderCall call() {
        return new ProviderCall("m", "system", List.of(new ProviderCall.Text("grade")), null,
                ModelProfile.forModel(JudgeProtocol.OPENAI, "m").withAnswerTokens(100));
    }

    static String envelope(String content) {
        return "{\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"message\":{\"role\":\"assistant\",\"content\":"
                + content + "}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}";
    }

    ProviderException failure() throws Exception {
        Throwable t = catchThrowable(() -> client().send(call()).get(30, TimeUnit.SECONDS));
        assertThat(t).isNotNull();
        Throwable cause = t.getCause() instanceof CompletionException c ? c.getCause() : t.getCause();
        assertThat(cause).isInstanceOf(ProviderException.class);
        return (ProviderException) cause;
    }

    @Test
    void anAnswerJustUnderTheLimitIsRead() throws Exception {
        int room = ProviderClient.MAX_BODY_BYTES - envelope("\"\"").length();
        String text = "a".repeat(room);
        body.set(envelope("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII));
        assertThat(body.get()).hasSize(ProviderClient.MAX_BODY_BYTES);
        ProviderReply reply = client().send(call()).get(30, TimeUnit.SECONDS);
        assertThat(reply.text()).hasSize(room);
    }

    @Test
    void aBodyDeclaringOneByteOverTheLimitIsRefusedBeforeItIsRead() throws Exception {
        String text = "a".repeat(ProviderClient.MAX_BODY_BYTES - envelope("\"\"").length() + 1);
        body.set(envelope("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII));
        ProviderException e = failure();
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.OVERSIZED);
        assertThat(e.kind().answered()).as("an answer, final: asking again reads the same runaway text").isTrue();
        assertThat(e.getMessage()).isEqualTo("the answer body is over the limit of " + ProviderClient.MAX_BODY_BYTES
                + " bytes (it declares " + (ProviderClient.MAX_BODY_BYTES + 1) + " bytes)");
    }

    @Test
    void aChunkedBodyIsCutOffWhereItPassesTheLimit() throws Exception {
        body.set(new byte[64 << 20]); // 64 MiB of zeros, sent without a length
        declared.set(0L);
        ProviderException e = failure();
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.OVERSIZED);
        assertThat(e.getMessage()).contains("over the limit of " + ProviderClient.MAX_BODY_BYTES + " bytes (it was cut off there)");
        Thread.sleep(200);
        assertThat(written.get()).as("bytes the server got out before the client hung up").isLessThan(32L << 20);
    }

    @Test
    void envelopesBeyondTheReadConstraintsAreOversizedAnswers() throws Exception {
        Map<String, String> bodies = Map.of(
                "Document nesting depth (65) exceeds the maximum allowed (64)", "{\"a\":" + "[".repeat(65) + "]".repeat(65) + "}",
                "Token count (10001) exceeds the maximum allowed (10000)", "{\"a\":[" + "0,".repeat(10_000) + "0]}",
                "Number value length (101) exceeds the maximum allowed (100)", "{\"a\":" + "1".repeat(101) + "}");
        for (var b : bodies.entrySet()) {
            body.set(b.getValue().getBytes(StandardCharsets.US_ASCII));
            ProviderException e = failure();
            assertThat(e.kind()).isEqualTo(ProviderException.Kind.OVERSIZED);
            assertThat(e.getMessage()).isEqualTo("the answer body is not JSON (" + b.getKey() + ")");
        }
    }

    @Test
    void aBodyThatIsNotJsonAtAllIsMalformedAndTransient() throws Exception {
        body.set("<html>502 Bad Gateway</html>".getBytes(StandardCharsets.US_ASCII));
        ProviderException e = failure();
        assertThat(e.kind()).isEqualTo(ProviderException.Kind.MALFORMED);
        assertThat(e.retryable()).as("a proxy's error page: the provider may answer next time").isTrue();
        assertThat(e.kind().answered()).isFalse();
    }
}
