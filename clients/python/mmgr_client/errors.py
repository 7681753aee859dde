"""The client's errors. Every one says what went wrong and what to do about it."""


class MmgrError(Exception):
    """Base class of everything the client raises on purpose."""


class UnknownTask(MmgrError, ValueError):
    """The task is not one the scorer knows."""


class SchemaMismatch(MmgrError, ValueError):
    """A record does not fit its Avro schema, or the schema registry refuses the client's schema."""


class ArtifactError(MmgrError, ValueError):
    """An output cannot be turned into an artifact the scorer can read."""


class ArtifactOutsideDirectory(ArtifactError):
    """A file output lies outside the shared artifact directory, where the scorer cannot read it."""


class ArtifactUploadFailed(ArtifactError):
    """An output could not be uploaded to the object store (``artifact_dir="s3://..."``): the store's answer says why."""


class VideoEncoderMissing(ArtifactError):
    """A list of frames was given but no MP4 encoder (ffmpeg) is installed."""


class BrokerUnreachable(MmgrError, ConnectionError):
    """The Kafka brokers do not answer."""


class RegistryUnreachable(MmgrError, ConnectionError):
    """The schema registry does not answer, or refuses the client's credentials."""


class TopicMissing(MmgrError, RuntimeError):
    """A topic the client writes or reads does not exist: the scorer creates them when it starts."""


class DeliveryFailed(MmgrError, RuntimeError):
    """The brokers did not acknowledge records the client sent."""


class ScorerTimeout(MmgrError, TimeoutError):
    """No answer from the scorer about a checkpoint within the time allowed."""


class ModalityUnknown(MmgrError, ValueError):
    """The generation's modality cannot be inferred, or the task does not accept the one given."""


class WebUnauthorized(MmgrError, PermissionError):
    """The scorer's web server wants its access token (MMGR_WEB_TOKEN), or refused the one given."""


class ScorerUnreachable(MmgrError, ConnectionError):
    """The scorer's web server does not answer."""
