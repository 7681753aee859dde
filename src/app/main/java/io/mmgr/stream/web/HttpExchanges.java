package io.mmgr.stream.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Small helpers over the JDK's HttpExchange, and the headers every answer carries. */
final class HttpExchanges {

    private static final Logger LOG = LoggerFactory.getLogger(HttpExchanges.class);

    /**
     * The dashboard page's policy: its own script and styles only (no inline script; inline style
     * attributes are set through the CSSOM, which the policy allows), media from its own artifact
     * endpoint, requests to its own origin, never framed.
     */
    static final String DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            + "media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    /** An artifact opened on its own: nothing in it may run or load anything, whatever it holds. */
    static final String ARTIFACT_CSP = "default-src 'none'; sandbox";

    private HttpExchanges() {
    }

    static Map<String, String> query(HttpExchange ex) {
        Map<String, String> out = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }

    /** What every answer carries: the browser takes the Content-Type as given, never guesses one from the bytes. */
    static void secure(HttpExchange ex) {
        ex.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        ex.getResponseHeaders().set("Referrer-Policy", "no-referrer");
    }

    static void json(HttpExchange ex, int status, JsonNode body) throws IOException {
        send(ex, status, "application/json; charset=utf-8", Json.MAPPER.writeValueAsBytes(body));
    }

    static void error(HttpExchange ex, int status, String message) throws IOException {
        json(ex, status, Json.MAPPER.createObjectNode().put("error", message));
    }

    /**
     * A failure of ours: the details (exception, stack) go to the server's log under an id; the caller
     * gets the id and nothing of the internals.
     */
    static void internalError(HttpExchange ex, Throwable t) throws IOException {
        String id = errorId();
        LOG.error("web request {} {} failed (error id {})", ex.getRequestMethod(), ex.getRequestURI().getPath(), id, t);
        json(ex, 500, Json.MAPPER.createObjectNode().put("error", "internal error (error id " + id
                + "; the server's log has the details)").put("errorId", id));
    }

    /** A short id that ties an answer to the log line holding what the answer leaves out. */
    static String errorId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    /** 401 with the way in; the token itself is never part of an answer. */
    static void unauthorized(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"mmgr-stream\"");
        error(ex, 401, "this scorer requires its access token: send 'Authorization: Bearer <token>' (the token given to "
                + "the scorer with --web-token or MMGR_WEB_TOKEN)");
    }

    /**
     * The handler behind the token check, any failure it does not answer itself answered by
     * {@link #internalError} (a response already begun is just closed).
     */
    static HttpHandler guarded(WebAccess access, HttpHandler handler) {
        return ex -> {
            try {
                if (!access.allows(ex)) {
                    unauthorized(ex);
                    return;
                }
                handler.handle(ex);
            } catch (IOException e) {
                ex.close(); // the client went away
            } catch (RuntimeException e) {
                if (ex.getResponseCode() == -1) {
                    internalError(ex, e);
                } else {
                    LOG.error("web request {} failed after its answer began", ex.getRequestURI().getPath(), e);
                    ex.close();
                }
            }
        };
    }

    static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        secure(ex);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
        ex.close();
    }
}
