package io.mmgr.stream.artifacts;

import io.mmgr.stream.tasks.ArtifactException;
import java.util.regex.Pattern;

/** An object named by an {@code s3://bucket/key} URI. The key is taken as written (S3 URIs are not percent-encoded). */
record S3Location(String bucket, String key) {

    // S3's own bucket names, plus upper case and underscores that older S3-compatible stores allow
    private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{2,62}");

    static S3Location parse(String uri) throws ArtifactException {
        if (uri == null || !uri.regionMatches(true, 0, "s3://", 0, 5)) {
            throw new ArtifactException("artifact URI '" + uri + "' is not an s3:// URI");
        }
        String rest = uri.substring(5);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String key = slash < 0 ? "" : rest.substring(slash + 1);
        if (!BUCKET.matcher(bucket).matches()) {
            // also refuses user:secret@bucket: credentials never travel in an artifact URI
            throw new ArtifactException("artifact URI '" + uri + "' must be s3://BUCKET/KEY with a bucket name of 3-63 letters, "
                    + "digits, '.', '-' or '_'");
        }
        if (key.isEmpty() || key.endsWith("/")) {
            throw new ArtifactException("artifact URI '" + uri + "' names no object (s3://BUCKET/KEY)");
        }
        return new S3Location(bucket, key);
    }

    @Override
    public String toString() {
        return "s3://" + bucket + "/" + key;
    }
}
