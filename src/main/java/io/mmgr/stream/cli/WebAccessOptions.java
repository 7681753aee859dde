package io.mmgr.stream.cli;

import io.mmgr.stream.web.WebAccess;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The web layer's access token: the same options wherever a process serves HTTP (run, demo,
 * judge-worker's /metrics) or calls another one's (bench load --attach). The token is read from the
 * environment by preference: a command line is visible to every user of the machine.
 */
public final class WebAccessOptions {

    @Option(names = "--web-token", defaultValue = "${env:MMGR_WEB_TOKEN}", paramLabel = "TOKEN", arity = "1",
            description = "access token every web request must carry as 'Authorization: Bearer TOKEN' (the dashboard "
                    + "asks for it once); at least " + WebAccess.MIN_TOKEN_LENGTH + " characters, e.g. 'openssl rand -hex 32'. "
                    + "Required when the server listens beyond loopback. Prefer the environment variable: a command line "
                    + "is visible to other users (env MMGR_WEB_TOKEN)")
    String token;

    @Option(names = "--web-auth", defaultValue = "${env:MMGR_WEB_AUTH:-token}", paramLabel = "token|none",
            description = "'none' serves the web layer without a token even beyond loopback, to anyone who reaches it; "
                    + "say so only behind a proxy that authenticates (default: ${DEFAULT-VALUE}; env MMGR_WEB_AUTH)")
    String mode;

    /** The access of a server bound to {@code bindHost}, or a usage error naming the option to set. */
    public WebAccess forBind(String bindHost, CommandLine cl) {
        try {
            return WebAccess.forBind(bindHost, token, mode);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
    }

    /** The token to send to a server (null: none given). */
    String token() {
        return token == null || token.isEmpty() ? null : token;
    }
}
