package io.mmgr.stream.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import io.mmgr.stream.avro.MetricStat;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Credentials, failures and odd answers, against a scripted loopback HTTP server. */
@Tag("unit")
class SchemaRegistryClientTest {

    private HttpServer fake;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private volatile int status;
    private volatile String body;
    private volatile String contentType;

    @BeforeEach
    void start() throws IOException {
        fake = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        fake.createContext("/", exchange -> {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(auth == null ? "(none)" : auth);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        fake.start();
    }

    @AfterEach
    void stop() {
        fake.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + fake.getAddress().getPort();
    }

    private void answer(int status, String contentType, String body) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
    }

    @Test
    void sendsBasicAuthButNeverShowsTheCredentials() {
        answer(401, "application/json", "{\"error_code\":40101,\"message\":\"Unauthorized\"}");
        SchemaRegistryClient client = new SchemaRegistryClient(url() + "/", Map.of("basic.auth.user.info", "alice:s3cret"));

        RegistryException e = catchThrowableOfType(RegistryException.class, client::subjects);

        assertThat(authorizations).containsExactly(
                "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8)));
        assertThat(e.status()).isEqualTo(401);
        assertThat(e.errorCode()).isEqualTo(40101);
        assertThat(e.getMessage()).contains("HTTP 401").contains("Unauthorized").doesNotContain("s3cret")
                .doesNotContain(Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8)));
        assertThat(client.baseUrl()).isEqualTo(url());
    }

    @Test
    void credentialsInTheUrlBecomeBasicAuthAndLeaveTheUrl() {
        answer(200, "application/vnd.schemaregistry.v1+json", "[\"a-value\"]");
        String withCredentials = url().replace("http://", "http://bob:Zq9%3Axy@") + "/apis/ccompat/v7";
        SchemaRegistryClient client = new SchemaRegistryClient(withCredentials);

        assertThat(client.subjects()).containsExactly("a-value");
        assertThat(authorizations).containsExactly(
                "Basic " + Base64.getEncoder().encodeToString("bob:Zq9:xy".getBytes(StandardCharsets.UTF_8)));
        assertThat(client.baseUrl()).isEqualTo(url() + "/apis/ccompat/v7").doesNotContain("bob");
        assertThat(client.toString()).doesNotContain("Zq9");
    }

    @Test
    void aNonJsonErrorPageStillGivesStatusAndAShortMessage() {
        answer(502, "text/html", "<html><body><h1>502 Bad Gateway</h1>" + "x".repeat(5000) + "</body></html>");
        SchemaRegistryClient client = new SchemaRegistryClient(url());

        RegistryException e = catchThrowableOfType(RegistryException.class,
                () -> client.register("s-value", MetricStat.getClassSchema()));

        assertThat(e.status()).isEqualTo(502);
        assertThat(e.errorCode()).isEqualTo(-1);
        assertThat(e.getMessage()).contains("502 Bad Gateway").contains("POST /subjects/s-value/versions")
                .hasSizeLessThan(600);
    }

    @Test
    void anUnreachableRegistryIsNamedWithStatusZero() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        SchemaRegistryClient client = new SchemaRegistryClient("http://127.0.0.1:" + closedPort);

        RegistryException e = catchThrowableOfType(RegistryException.class, () -> client.schemaById(1));

        assertThat(e.status()).isEqualTo(RegistryException.NO_RESPONSE);
        assertThat(e.getMessage()).contains("unreachable").contains("127.0.0.1:" + closedPort);
    }

    @Test
    void aSuccessWithoutAnIdIsAnError() {
        answer(200, "application/json", "{\"identifier\": 3}");
        SchemaRegistryClient client = new SchemaRegistryClient(url());

        assertThatThrownBy(() -> client.register("s-value", MetricStat.getClassSchema()))
                .isInstanceOf(RegistryException.class).hasMessageContaining("'id'");
    }

    @Test
    void aNonAvroSchemaIdIsRefused() {
        answer(200, "application/json", "{\"schemaType\": \"PROTOBUF\", \"schema\": \"syntax = \\\"proto3\\\";\"}");
        SchemaRegistryClient client = new SchemaRegistryClient(url());

        assertThatThrownBy(() -> client.schemaById(5)).isInstanceOf(RegistryException.class)
                .hasMessageContaining("PROTOBUF");
    }

    @Test
    void badUrlsAndSettingsAreRefusedUpFront() {
        assertThatThrownBy(() -> new SchemaRegistryClient("localhost:8081"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http(s)://");
        assertThatThrownBy(() -> new SchemaRegistryClient(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
        assertThatThrownBy(() -> new SchemaRegistryClient(url(), Map.of("request.timeout.ms", "soon")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("request.timeout.ms");
    }

    @Test
    void aClosedClientRefusesWork() {
        answer(200, "application/json", "[]");
        SchemaRegistryClient client = new SchemaRegistryClient(url());
        client.close();

        assertThatThrownBy(client::subjects).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(authorizations).isEmpty();
    }
}
