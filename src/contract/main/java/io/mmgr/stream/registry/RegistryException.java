package io.mmgr.stream.registry;

/**
 * A schema registry call failed: the registry answered with an error, or could not be reached.
 *
 * <p>Carries the HTTP status and the registry's own {@code error_code} (Confluent's codes, e.g.
 * 40401 subject not found, 40403 schema not found, 409 incompatible schema, 42201 invalid schema).
 * Messages name the registry by its URL without credentials.
 */
public final class RegistryException extends RuntimeException {

    /** Status used when no HTTP response arrived (connection refused, timeout, ...). */
    public static final int NO_RESPONSE = 0;

    private final int status;
    private final int errorCode;
    private final String registryMessage;

    public RegistryException(int status, int errorCode, String registryMessage, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
        this.registryMessage = registryMessage;
    }

    public RegistryException(String message, Throwable cause) {
        super(message, cause);
        this.status = NO_RESPONSE;
        this.errorCode = -1;
        this.registryMessage = null;
    }

    /** HTTP status of the registry's answer, or {@link #NO_RESPONSE}. */
    public int status() {
        return status;
    }

    /** The registry's {@code error_code}, or -1 when the answer had none. */
    public int errorCode() {
        return errorCode;
    }

    /** The registry's {@code message} as it sent it, or null. */
    public String registryMessage() {
        return registryMessage;
    }

    /** True for "no such schema / subject / version" answers (HTTP 404). */
    public boolean isNotFound() {
        return status == 404;
    }
}
