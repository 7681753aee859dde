"""Outputs uploaded to S3 or an S3-compatible store (MinIO, R2, the S3 API of GCS), for a scorer that reads
``s3://`` artifacts: ``Evaluator(artifact_dir="s3://bucket/prefix")``.

The upload uses boto3 (Debian: python3-boto3) with the standard AWS settings: credentials from boto3's chain
(``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``, a profile, a role), the endpoint from ``AWS_ENDPOINT_URL_S3`` or
``AWS_ENDPOINT_URL`` (read here too, since older botocore, Debian 12's among them, does not read them), the region
from ``AWS_REGION`` or ``AWS_DEFAULT_REGION``. With an endpoint, buckets are addressed path-style
(``endpoint/bucket/key``), as S3-compatible stores want; ``MMGR_S3_ADDRESSING_STYLE`` (``path``, ``virtual``,
``auto``) overrides that.
"""
from __future__ import annotations

import os
import re
from typing import Any, Optional, Tuple

from .errors import ArtifactError, ArtifactUploadFailed

_BUCKET = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{2,62}")


def parse(uri: str) -> Tuple[str, str]:
    """``s3://bucket/prefix`` as (bucket, prefix without surrounding slashes)."""
    if not uri.startswith("s3://"):
        raise ArtifactError("%r is not an s3:// URI" % uri)
    bucket, _, prefix = uri[5:].partition("/")
    if not _BUCKET.fullmatch(bucket):
        raise ArtifactError("%r must be s3://BUCKET[/PREFIX] with a bucket name of 3-63 letters, digits, '.', '-' or '_'"
                            % uri)
    return bucket, prefix.strip("/")


def endpoint() -> Optional[str]:
    """The store's endpoint from the environment, as the AWS SDKs read it; None: AWS itself."""
    return os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or None


class S3Target:
    """A bucket and key prefix that outputs are uploaded under; the client is made at the first upload."""

    def __init__(self, uri: str) -> None:
        self.bucket, self.prefix = parse(uri)
        self._client: Any = None
        self._endpoint = endpoint()

    def key(self, *parts: str) -> str:
        return "/".join(([self.prefix] if self.prefix else []) + list(parts))

    def _s3(self) -> Any:
        if self._client is None:
            try:
                import boto3
                from botocore.config import Config
            except ImportError:
                raise ArtifactError("artifact_dir=s3://... uploads with boto3, which is not installed "
                                    "(Debian: apt-get install python3-boto3)") from None
            style = os.environ.get("MMGR_S3_ADDRESSING_STYLE") or ("path" if self._endpoint else "auto")
            region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or None
            self._client = boto3.session.Session().client(
                "s3", endpoint_url=self._endpoint, region_name=region,
                config=Config(s3={"addressing_style": style}, connect_timeout=10, read_timeout=60,
                              retries={"max_attempts": 3, "mode": "standard"}))
        return self._client

    def upload(self, key: str, body: Any, media_type: str, digest: str) -> str:
        """Puts ``body`` (bytes or a binary file) under ``key``; returns its ``s3://`` URI."""
        uri = "s3://%s/%s" % (self.bucket, key)
        client = self._s3()
        from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError
        try:
            client.put_object(Bucket=self.bucket, Key=key, Body=body, ContentType=media_type,
                              Metadata={"sha256": digest})
        except NoCredentialsError:
            raise ArtifactUploadFailed("cannot upload %s: no AWS credentials found (AWS_ACCESS_KEY_ID and "
                                       "AWS_SECRET_ACCESS_KEY, a profile, or a role)" % uri) from None
        except ClientError as e:
            err = e.response.get("Error", {})
            raise ArtifactUploadFailed("cannot upload %s: the store answered %s %s%s" % (
                uri, e.response.get("ResponseMetadata", {}).get("HTTPStatusCode", "?"), err.get("Code", ""),
                " (the bucket does not exist)" if err.get("Code") == "NoSuchBucket" else
                " (these credentials may not write there)" if err.get("Code") == "AccessDenied" else "")) from None
        except BotoCoreError as e:
            raise ArtifactUploadFailed("cannot upload %s: the store at %s cannot be reached (%s)" % (
                uri, self._endpoint or "AWS", e)) from None
        return uri
