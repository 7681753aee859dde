"""Evaluate checkpoints from inside a training job: submit outputs, mark a checkpoint done, wait for the verdict."""
from __future__ import annotations

import datetime
import os
import time
import uuid
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from . import artifacts as _artifacts
from . import tasks as _tasks
from .checkpoints import Checkpoints
from .errors import ModalityUnknown, ScorerTimeout
from .publisher import Publisher, TopicReader

DEFAULT_INLINE_MAX_BYTES = 64 * 1024
# the scorer's default deadline (mmgr.checkpoint-status.timeout-ms), for a marker that names none
SCORER_DEFAULT_TIMEOUT = 600.0


class Evaluator:
    """A training run's connection to the scorer.

    Generation events go to ``<prefix>generations`` keyed ``run/checkpoint/task/sample#seed`` (the key
    ``bin/mmgr publish`` uses), benchmark items to ``<prefix>benchmark`` keyed ``task/sampleId``, done markers to
    ``<prefix>checkpoint-done``; the scorer's answers are read from ``<prefix>checkpoint-status``. Records are
    Avro in the Confluent wire format, with the schemas of the repository's ``schemas/`` registered under
    ``<topic>-key`` / ``<topic>-value``.

    :param bootstrap_servers: Kafka, e.g. ``"kafka:9092"``
    :param schema_registry_url: a Confluent-compatible registry; ``user:password@`` in it is used for basic auth
    :param run_id: the training run
    :param model: the model being trained (``GenerationEvent.model``)
    :param artifact_dir: a directory the scorer reads (one of its ``--artifact-root`` directories): outputs too
        large to inline are written under it, and file outputs must lie in it. Or ``"s3://bucket/prefix"``: those
        outputs, and file outputs from anywhere, are uploaded there with boto3 (endpoint, region and credentials
        from the standard AWS settings, see ``mmgr_client.s3``) and sent as ``s3://`` references with their digest
    :param topic_prefix: the scorer's ``--topic-prefix``
    :param inline_max_bytes: outputs up to this size travel inline as ``data:`` URIs
    :param delivery_timeout: seconds the brokers have to acknowledge a record
    :param connect_timeout: seconds the brokers and the registry have to answer at start
    :param registry_config: registry client settings, e.g. ``{"basic.auth.user.info": "user:password"}``
    :param kafka_config: librdkafka settings for the producer and consumer (``security_protocol="SASL_SSL"`` is
        ``security.protocol``; or pass ``**{"sasl.mechanism": "PLAIN"}``)
    """

    def __init__(self, bootstrap_servers: str, schema_registry_url: str, run_id: str, model: str,
                 artifact_dir: Optional[os.PathLike] = None, *, topic_prefix: str = "mmgr.",
                 inline_max_bytes: int = DEFAULT_INLINE_MAX_BYTES, delivery_timeout: float = 30.0,
                 connect_timeout: float = 10.0, registry_config: Optional[Mapping[str, str]] = None,
                 **kafka_config: Any) -> None:
        if not run_id or not model:
            raise ValueError("run_id and model must not be empty")
        self.run_id = run_id
        self.model = model
        self.publisher = Publisher(bootstrap_servers, schema_registry_url, topic_prefix,
                                   delivery_timeout=delivery_timeout, connect_timeout=connect_timeout,
                                   registry_config=registry_config, **kafka_config)
        self._known_tasks = _tasks.catalog()
        self._store = _artifacts.ArtifactStore(artifact_dir, inline_max_bytes)
        self._reader: Optional[TopicReader] = None
        self._answers: Dict[Tuple[str, str], Dict[str, Any]] = {}
        self._benchmark_tasks: Set[str] = set()
        self._checkpoints: Dict[str, Dict[str, Any]] = {}
        #: this run's verdicts as poll() and wait() receive them: best(), should_stop()
        self.checkpoints = Checkpoints()
        self._callbacks: List[Callable[[Dict[str, Any]], None]] = []
        self._delivered: Dict[str, Tuple[str, str]] = {}

    # -- public API -------------------------------------------------------------------------------------------

    def publish_benchmark(self, items: Iterable[Mapping[str, Any]]) -> int:
        """Publishes benchmark items (dicts with the BenchmarkItem field names) and waits until they are delivered.

        Publish them before the first checkpoint's outputs, which may follow at once: the scorer gives each
        output its item, and an output that arrives first waits for it (mmgr.intake.item-wait-ms, 5 minutes).
        Returns the number of items sent.
        """
        count = 0
        for i, item in enumerate(items):
            _tasks.check(item.get("task"), self._known_tasks)
            self.publisher.send_record("benchmark", "%s/%s" % (item["task"], item.get("sampleId")), item, "item %d" % i)
            self._benchmark_tasks.add(item["task"])
            count += 1
        self.flush()
        return count

    def submit(self, checkpoint_id: str, training_step: int, task: str, sample_id: str, seed: int = 0,
               output: Any = None, inputs: Optional[Mapping[str, Any]] = None, *, modality: Optional[str] = None,
               media_type: Optional[str] = None, fps: Optional[float] = None,
               attributes: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
        """Sends one output of a checkpoint on one benchmark sample.

        :param output: a file path (under the artifact directory), encoded bytes (PNG, JPEG, MP4, WebM), a PIL
            image, a numpy array (an image; 4-D: frames) or a list of frames (encoded to MP4 with ffmpeg)
        :param inputs: precomputed inputs with the GenerationInputs field names (``uiActions``, ``trials``, ...)
        :param modality: image, video, text, trajectory, ui or robot; inferred from the task and the output
        :returns: the event as sent (with the artifact reference and its SHA-256)

        Delivery is asynchronous; :meth:`flush`, :meth:`checkpoint_done` and :meth:`close` wait for it and raise
        DeliveryFailed if the brokers did not take a record.
        """
        self.publisher.raise_failures()
        spec = _tasks.check(task, self._known_tasks)
        artifact_refs = []
        kind = None
        if output is not None:
            art = _artifacts.from_output(output, fps=fps, media_type=media_type)
            kind = art.kind
            artifact_refs.append(self._store.reference(art, "output", [self.run_id, checkpoint_id, task,
                                                                       "%s.seed%s" % (sample_id, seed)]))
        accepted = spec["modalities"]
        if modality is None:
            modality = _tasks.infer_modality(task, accepted, kind, inputs)
        elif modality not in accepted:
            raise ModalityUnknown("task %s accepts %s, not %r" % (task, ", ".join(accepted), modality))
        event = {"runId": self.run_id, "model": self.model, "checkpointId": checkpoint_id,
                 "trainingStep": training_step, "task": task, "sampleId": sample_id, "seed": seed,
                 "modality": modality, "artifacts": artifact_refs, "inputs": inputs,
                 "producedAt": datetime.datetime.now(datetime.timezone.utc), "attributes": dict(attributes or {})}
        ref = "%s/%s/%s/%s#%s" % (self.run_id, checkpoint_id, task, sample_id, seed)
        self.publisher.send_record("generations", ref, event, ref)
        ckpt = self._checkpoints.setdefault(checkpoint_id, {"tasks": set(), "step": training_step, "marker": None})
        ckpt["tasks"].add(task)
        ckpt["step"] = training_step
        return event

    def checkpoint_done(self, checkpoint_id: str, expected: Optional[int] = None, *, timeout: Optional[float] = None,
                        tasks: Optional[Sequence[str]] = None) -> str:
        """Marks the checkpoint's outputs all submitted; the scorer answers once every expected sample is scored.

        :param expected: samples expected over all tasks; ``None``: the benchmark's items x seeds of each task
        :param timeout: seconds after the marker reaches the scorer before it answers TIMED_OUT; ``None``: the
            scorer's default (``-P mmgr.checkpoint-status.timeout-ms``, 10 minutes)
        :param tasks: the tasks the checkpoint is evaluated on; ``None``: those of the benchmark this evaluator
            published and those submitted for the checkpoint
        :returns: the marker's id, which the answer carries
        """
        self.flush()
        ckpt = self._checkpoints.setdefault(checkpoint_id, {"tasks": set(), "step": None, "marker": None})
        names = sorted(set(tasks) if tasks is not None else self._benchmark_tasks | ckpt["tasks"])
        for t in names:
            _tasks.check(t, self._known_tasks)
        marker = {"doneId": uuid.uuid4().hex, "runId": self.run_id, "checkpointId": checkpoint_id, "model": self.model,
                  "trainingStep": ckpt["step"], "tasks": names, "expected": expected,
                  "timeoutMs": None if timeout is None else max(1, int(timeout * 1000)),
                  "sentAt": datetime.datetime.now(datetime.timezone.utc)}
        self.publisher.send_record("checkpoint-done", {"runId": self.run_id, "checkpointId": checkpoint_id}, marker,
                                   "done marker of " + checkpoint_id)
        self.flush()
        ckpt["marker"] = dict(marker, timeout=timeout, expected=expected, tasks=tasks)
        self.checkpoints.expect(checkpoint_id, ckpt["step"] or 0)
        self._status_reader()  # its consumer starts fetching the answers in the background now
        return marker["doneId"]

    def poll(self) -> List[Dict[str, Any]]:
        """The verdicts that arrived since the last call, without waiting: each as :meth:`wait` returns it.

        Only answers to this evaluator's latest marker of each checkpoint count; a rewritten answer (a late
        sample, a re-score) comes again. Each verdict also goes to :attr:`checkpoints` and to the
        :meth:`on_verdict` callbacks, in this thread, before this returns.
        """
        arrived = []
        for status in self._status_reader().available():
            verdict = self._take(status)
            if verdict is not None:
                arrived.append(verdict)
        return arrived

    def on_verdict(self, callback: Callable[[Dict[str, Any]], None]) -> None:
        """Calls ``callback(verdict)`` for every verdict :meth:`poll` or :meth:`wait` receives, in their thread."""
        self._callbacks.append(callback)

    def pending(self) -> List[str]:
        """Checkpoints marked done whose verdict has not arrived yet, in training-step order."""
        return self.checkpoints.pending()

    def wait(self, checkpoint_id: str, timeout: Optional[float] = None, *, answer_grace: float = 30.0) -> Dict[str, Any]:
        """The scorer's verdict on a checkpoint, once every expected sample is scored or the timeout passes.

        Marks the checkpoint done first if :meth:`checkpoint_done` was not called. With ``timeout``, the scorer
        times the checkpoint out that many seconds from now (the marker is sent again with it).

        :returns: ``{"status": "complete" | "timed_out", "rows": [LeaderboardRow...], "comparisons":
            [CheckpointComparison...], "overall": CheckpointTaskStatus, "tasks": [CheckpointTaskStatus...],
            "alerts": [Alert...], "record": CheckpointStatus}``, with the schemas' field names and timestamps as
            ISO-8601 strings
        :raises ScorerTimeout: when no answer comes ``answer_grace`` seconds after the scorer's deadline
            (no scorer running on these topics?)
        """
        ckpt = self._checkpoints.get(checkpoint_id)
        marker = ckpt["marker"] if ckpt else None
        if marker is None or (timeout is not None and timeout != marker["timeout"]):
            self.checkpoint_done(checkpoint_id, marker["expected"] if marker else None, timeout=timeout,
                                 tasks=marker["tasks"] if marker else None)
            marker = self._checkpoints[checkpoint_id]["marker"]
        allowed = (marker["timeout"] if marker["timeout"] is not None else SCORER_DEFAULT_TIMEOUT) + answer_grace
        deadline = time.monotonic() + allowed
        reader = self._status_reader()
        key = (self.run_id, checkpoint_id)
        while True:
            answer = self._answers.get(key)
            if answer is not None and answer["doneId"] == marker["doneId"]:
                return _result(answer)
            left = deadline - time.monotonic()
            if left <= 0:
                raise ScorerTimeout(
                    "no answer about %s/%s on %s within %.0f s of its done marker: is a scorer running on these topics "
                    "(topic prefix, application)? Its marker %s is on %s." % (
                        self.run_id, checkpoint_id, self.publisher.topics["checkpoint-status"], allowed,
                        marker["doneId"], self.publisher.topics["checkpoint-done"]))
            status = reader.poll(min(0.5, left))
            if status is not None:
                self._take(status)

    def _status_reader(self) -> TopicReader:
        if self._reader is None:
            self._reader = self.publisher.reader("checkpoint-status")
        return self._reader

    def _take(self, status: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """Keeps an answer read from the topic; returns it as a verdict when it is new and answers our marker."""
        self._answers[(status["runId"], status["checkpointId"])] = status
        if status["runId"] != self.run_id:
            return None
        ckpt = self._checkpoints.get(status["checkpointId"])
        marker = ckpt["marker"] if ckpt else None
        version = (status["doneId"], status["updatedAt"])
        # an answer to an earlier marker (or another job's run of the same id) is not this job's verdict
        if marker is None or marker["doneId"] != status["doneId"] or self._delivered.get(status["checkpointId"]) == version:
            return None
        self._delivered[status["checkpointId"]] = version
        verdict = _result(status)
        self.checkpoints.update(verdict)
        for callback in self._callbacks:
            callback(verdict)
        return verdict

    def flush(self) -> None:
        """Waits until every record sent is acknowledged; DeliveryFailed (or BrokerUnreachable) if one was not."""
        self.publisher.flush()

    def close(self) -> None:
        """Flushes and closes the clients."""
        try:
            self.flush()
        finally:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    def __enter__(self) -> "Evaluator":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _result(status: Dict[str, Any]) -> Dict[str, Any]:
    return {"status": status["status"].lower(), "rows": status["rows"], "comparisons": status["comparisons"],
            "overall": status["overall"], "tasks": status["tasks"],
            "alerts": [a for t in status["tasks"] + [status["overall"]] for a in t["alerts"]], "record": status}
