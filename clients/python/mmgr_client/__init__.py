"""mmgr-stream's Python client: evaluate checkpoints from inside a training loop.

    from mmgr_client import Evaluator
    ev = Evaluator("localhost:9092", "http://localhost:8081", run_id="run-7", model="my-model",
                   artifact_dir="/shared/artifacts")
    ev.publish_benchmark(items)
    ev.submit("ckpt-1000", 1000, "maze", "maze-0001", output=image)
    ev.checkpoint_done("ckpt-1000")
    verdict = ev.wait("ckpt-1000", timeout=600)    # or, without waiting: ev.poll(), ev.checkpoints.best()

See README.md beside the package.
"""
from .errors import (ArtifactError, ArtifactOutsideDirectory, ArtifactUploadFailed, BrokerUnreachable, DeliveryFailed,
                     MmgrError, ModalityUnknown, RegistryUnreachable, SchemaMismatch, ScorerTimeout, TopicMissing, UnknownTask,
                     ScorerUnreachable, VideoEncoderMissing, WebUnauthorized)
from .checkpoints import Checkpoints
from .endpoints import read_endpoints
from .evaluator import Evaluator
from .web import ScorerApi

__all__ = ["Evaluator", "Checkpoints", "ScorerApi", "read_endpoints", "WebUnauthorized", "ScorerUnreachable", "MmgrError", "UnknownTask", "SchemaMismatch", "ArtifactError", "ArtifactOutsideDirectory",
           "ArtifactUploadFailed", "VideoEncoderMissing", "BrokerUnreachable", "RegistryUnreachable", "TopicMissing", "DeliveryFailed",
           "ScorerTimeout", "ModalityUnknown"]
__version__ = "0.1.0"
