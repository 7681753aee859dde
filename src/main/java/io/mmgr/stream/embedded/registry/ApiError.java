package io.mmgr.stream.embedded.registry;

/** An error answer of {@link RegistryServer}: HTTP status plus Confluent's error_code and message. */
public final class ApiError extends RuntimeException {

    // Confluent's error codes (docs.confluent.io/platform/current/schema-registry/develop/api.html,
    // "Errors"; the numbers are those of confluentinc/schema-registry rest/exceptions/Errors.java).
    static final int SUBJECT_NOT_FOUND = 40401;
    static final int VERSION_NOT_FOUND = 40402;
    public static final int SCHEMA_NOT_FOUND = 40403;
    static final int SUBJECT_COMPATIBILITY_NOT_CONFIGURED = 40408;
    static final int INCOMPATIBLE_SCHEMA = 409;
    static final int INVALID_SCHEMA = 42201;
    static final int INVALID_VERSION = 42202;
    static final int INVALID_COMPATIBILITY_LEVEL = 42203;
    static final int STORE_ERROR = 50001;

    final int status;
    final int errorCode;

    ApiError(int status, int errorCode, String message) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
    }

    public int status() {
        return status;
    }

    public int errorCode() {
        return errorCode;
    }

    static ApiError subjectNotFound(String subject) {
        return new ApiError(404, SUBJECT_NOT_FOUND, "Subject '" + subject + "' not found.");
    }

    static ApiError versionNotFound(String subject, int version) {
        return new ApiError(404, VERSION_NOT_FOUND, "Version " + version + " of subject '" + subject + "' not found.");
    }

    static ApiError schemaNotFound(String what) {
        return new ApiError(404, SCHEMA_NOT_FOUND, what);
    }

    static ApiError invalidSchema(String why) {
        return new ApiError(422, INVALID_SCHEMA, why);
    }
}
