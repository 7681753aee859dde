package io.mmgr.stream.web;

import com.sun.net.httpserver.HttpExchange;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who may read the web layer: anyone (no token: loopback, or {@code --web-auth none} said so), or
 * whoever presents the access token, as {@code Authorization: Bearer <token>} or as the dashboard's
 * session cookie.
 *
 * <p>The dashboard's browser cannot put a header on {@code <img src>}, {@code <video src>} or an
 * {@code EventSource}, so it trades the token once ({@code POST /api/session} with the header) for an
 * HttpOnly, SameSite=Strict cookie: media and live updates then work unchanged, script on the page
 * never holds the secret after that exchange, and other sites cannot make the browser send it. The
 * cookie's value is an HMAC of the token, not the token: the same on every instance sharing the
 * token (a load balancer may switch between them) and useless as a bearer token for the API.
 */
public final class WebAccess {

    public static final String COOKIE = "mmgr_session";
    /** Shorter secrets can be guessed over HTTP; a generated one ({@code openssl rand -hex 32}) is 64. */
    public static final int MIN_TOKEN_LENGTH = 16;
    static final String AUTH_NONE = "none";
    static final String AUTH_TOKEN = "token";

    private static final WebAccess OPEN = new WebAccess(null);

    private final byte[] tokenDigest;
    private final String token;
    private final String session;

    private WebAccess(String token) {
        this.token = token;
        this.tokenDigest = token == null ? null : sha256(token);
        this.session = token == null ? null : hmac(token, "mmgr-stream dashboard session v1");
    }

    /** No token: every request is answered. */
    public static WebAccess open() {
        return OPEN;
    }

    /** Requests must carry {@code token}. */
    public static WebAccess token(String token) {
        if (token == null || token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("--web-token (MMGR_WEB_TOKEN) must be at least " + MIN_TOKEN_LENGTH
                    + " characters, e.g. the output of 'openssl rand -hex 32'");
        }
        if (!token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("--web-token (MMGR_WEB_TOKEN) must be printable ASCII without spaces "
                    + "(it travels in an HTTP header)");
        }
        return new WebAccess(token);
    }

    /**
     * The access a server bound to {@code bindHost} gets from the flags: a token when one is given;
     * none on loopback; beyond loopback, none only when {@code --web-auth none} says so explicitly.
     *
     * @param token    {@code --web-token} / MMGR_WEB_TOKEN (null or empty: none)
     * @param authMode {@code --web-auth}: {@code token} (the default) or {@code none}
     * @throws IllegalArgumentException with the option to set, when the server would be open beyond loopback
     */
    public static WebAccess forBind(String bindHost, String token, String authMode) {
        String mode = authMode == null || authMode.isEmpty() ? AUTH_TOKEN : authMode;
        boolean hasToken = token != null && !token.isEmpty();
        if (!List.of(AUTH_TOKEN, AUTH_NONE).contains(mode)) {
            throw new IllegalArgumentException("--web-auth must be 'token' or 'none', not '" + mode + "'");
        }
        if (AUTH_NONE.equals(mode)) {
            if (hasToken) {
                throw new IllegalArgumentException("--web-auth none and a --web-token (or MMGR_WEB_TOKEN) contradict each other: "
                        + "drop one");
            }
            return OPEN;
        }
        if (hasToken) {
            return token(token);
        }
        if (isLoopback(bindHost)) {
            return OPEN;
        }
        throw new IllegalArgumentException("the web server would listen on " + bindHost + ", beyond loopback, with no access "
                + "token: set --web-token (or MMGR_WEB_TOKEN), or pass --web-auth none to serve the dashboard and REST API "
                + "to anyone who reaches it");
    }

    /** 127.0.0.0/8 and ::1 (a name counts when it resolves to loopback, as {@code localhost} does). */
    public static boolean isLoopback(String bindHost) {
        try {
            return InetAddress.getByName(bindHost).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public boolean required() {
        return token != null;
    }

    /** The header value for calls to other instances sharing this token. */
    Optional<String> authorization() {
        return token == null ? Optional.empty() : Optional.of("Bearer " + token);
    }

    /** Whether the request may be answered: no token needed, or the bearer token or the session cookie is right. */
    boolean allows(HttpExchange ex) {
        if (token == null) {
            return true;
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return matches(auth.substring(7).trim());
        }
        return cookie(ex).map(c -> MessageDigest.isEqual(sha256(c), sha256(session))).orElse(false);
    }

    /** Constant time: digests of equal length are compared, so neither the content nor the length leaks. */
    boolean matches(String presented) {
        return token != null && MessageDigest.isEqual(sha256(presented), tokenDigest);
    }

    /** The Set-Cookie value that lets a browser in: for this origin's requests only, out of script's reach. */
    String sessionCookie() {
        return COOKIE + "=" + session + "; Path=/; HttpOnly; SameSite=Strict";
    }

    private static Optional<String> cookie(HttpExchange ex) {
        for (String header : ex.getRequestHeaders().getOrDefault("Cookie", List.of())) {
            for (String part : header.split(";")) {
                String p = part.trim();
                if (p.startsWith(COOKIE + "=")) {
                    return Optional.of(p.substring(COOKIE.length() + 1));
                }
            }
        }
        return Optional.empty();
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hmac(String key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Never the token: this object may end up in a log line. */
    @Override
    public String toString() {
        return token == null ? "WebAccess[open]" : "WebAccess[token required]";
    }
}
