"""Avro records to and from the scorer's topics: the producer, the registry and the checks, without the
training-run bookkeeping of :class:`mmgr_client.Evaluator` (which is built on it). ``interop/produce_events.py``
replays JSONL files of events through it."""
from __future__ import annotations

import logging
import threading
import uuid
from typing import Any, Dict, List, Mapping, Optional, Tuple

try:
    from confluent_kafka import Consumer, KafkaError, KafkaException, OFFSET_BEGINNING, Producer, TopicPartition
except ImportError as e:  # pragma: no cover - depends on the machine
    raise ImportError("mmgr_client needs confluent-kafka and avro: the Debian packages python3-confluent-kafka and "
                      "python3-avro (they install for /usr/bin/python3, which a version manager's python3 may shadow), "
                      "or pip install confluent-kafka avro (%s)" % e) from e

from . import codec
from .errors import BrokerUnreachable, DeliveryFailed, TopicMissing
from .partitioning import sample_partition
from .schemas import SchemaSet

# librdkafka's own log lines go through logging instead of straight to stderr
_KAFKA_LOG = logging.getLogger("mmgr_client.kafka")

#: topic -> (key schema or None for a UTF-8 string key, value schema)
TOPICS = {"generations": (None, "GenerationEvent"), "benchmark": (None, "BenchmarkItem"),
          "checkpoint-done": ("CheckpointKey", "CheckpointDone"), "checkpoint-status": ("CheckpointKey", "CheckpointStatus")}


class Publisher:
    """Sends records to the scorer's topics (``<prefix><topic>``) and reads them back.

    Values are Avro in the Confluent wire format, registered under ``<topic>-value`` (keys under
    ``<topic>-key``). Delivery is asynchronous; :meth:`flush` waits for every acknowledgement and raises
    :class:`DeliveryFailed` for the records the brokers did not take.
    """

    def __init__(self, bootstrap_servers: str, schema_registry_url: str, topic_prefix: str = "mmgr.", *,
                 delivery_timeout: float = 30.0, connect_timeout: float = 10.0,
                 registry_config: Optional[Mapping[str, str]] = None, **kafka_config: Any) -> None:
        self.bootstrap_servers = bootstrap_servers
        self.topics = {kind: topic_prefix + kind for kind in TOPICS}
        self.schemas = SchemaSet()
        self.registry = codec.Registry(schema_registry_url, dict(registry_config or {}), timeout=connect_timeout)
        self._delivery_timeout = delivery_timeout
        self._connect_timeout = connect_timeout
        self._partitions: Dict[str, int] = {}
        # security_protocol="SASL_SSL" is security.protocol; keys with dots pass as they are
        self._kafka = {(k if "." in k else k.replace("_", ".")): v for k, v in kafka_config.items()}
        self._kafka["bootstrap.servers"] = bootstrap_servers
        # librdkafka's info lines (e.g. "Purging 1 unserved events" at close, written to stderr once the
        # logger is gone) would land in the training job's output; notices and worse still reach the logger
        self._kafka.setdefault("log_level", 5)
        self._errors: List[str] = []
        self._failures: List[Tuple[str, str]] = []
        self._lock = threading.Lock()
        self._producer = Producer(dict(self._kafka, **{
            "enable.idempotence": True, "acks": "all", "linger.ms": 5,
            "message.timeout.ms": int(delivery_timeout * 1000), "logger": _KAFKA_LOG, "error_cb": self._on_error}))
        self._check_topics(connect_timeout)

    def encode(self, type_name: str, topic: str, value: Mapping[str, Any], what: str = "", is_key: bool = False) -> bytes:
        """The record checked against its schema (SchemaMismatch names the field) and framed with its schema id."""
        schema = self.schemas.parsed(type_name)
        datum = codec.shape(schema, value, "%s (%s)" % (type_name, what) if what else type_name)
        subject = "%s-%s" % (topic, "key" if is_key else "value")
        return codec.encode(schema, self.registry.register(subject, self.schemas.text(type_name), type_name), datum)

    def send_record(self, kind: str, key: Any, value: Mapping[str, Any], ref: str) -> None:
        """Sends a value to one of the scorer's topics (``generations``, ``benchmark``, ``checkpoint-done``);
        ``key`` is a string, or a dict for an Avro key. ``ref`` names the record in errors."""
        topic = self.topics[kind]
        key_type, value_type = TOPICS[kind]
        key_bytes = self.encode(key_type, topic, key, ref, is_key=True) if key_type else str(key).encode("utf-8")
        # an event on its sample's partition is assembled where it is read, without a repartition hop
        partition = sample_partition(value, self._partition_count(topic)) if kind == "generations" else None
        self.send(topic, key_bytes, self.encode(value_type, topic, value, ref), ref, partition)

    def _partition_count(self, topic: str) -> int:
        count = self._partitions.get(topic)
        if count is None:
            metadata = self._producer.list_topics(topic, timeout=self._connect_timeout)
            found = metadata.topics.get(topic)
            if found is None or found.error is not None or not found.partitions:
                raise TopicMissing("topic %s does not exist on %s (is the scorer running with this topic prefix?)"
                                   % (topic, self.bootstrap_servers))
            count = self._partitions[topic] = len(found.partitions)
        return count

    def send(self, topic: str, key: bytes, value: bytes, ref: str, partition: Optional[int] = None) -> None:
        """Sends encoded bytes; a failed delivery is raised by the next :meth:`flush`."""
        self.raise_failures()

        def delivered(err, msg, ref=ref):
            if err is not None:
                with self._lock:
                    self._failures.append((ref, err.str()))
        while True:
            try:
                if partition is None:
                    self._producer.produce(topic, key=key, value=value, on_delivery=delivered)
                else:
                    self._producer.produce(topic, key=key, value=value, partition=partition, on_delivery=delivered)
                break
            except BufferError:  # the local queue is full: let deliveries drain it
                self._producer.poll(0.1)
            except KafkaException as e:
                raise DeliveryFailed("cannot send %s to %s: %s" % (ref, topic, e.args[0].str())) from None
        self._producer.poll(0)

    def flush(self) -> None:
        """Waits until every record sent is acknowledged; DeliveryFailed (or BrokerUnreachable) if one was not."""
        remaining = self._producer.flush(self._delivery_timeout + 5)
        if remaining:
            raise BrokerUnreachable("%d records not delivered to %s within %.0f s%s" % (
                remaining, self.bootstrap_servers, self._delivery_timeout, self._last_error()))
        self.raise_failures()

    def raise_failures(self) -> None:
        with self._lock:
            failures, self._failures = self._failures, []
        if failures:
            shown = "; ".join("%s: %s" % f for f in failures[:5])
            raise DeliveryFailed("%d records were not delivered to %s: %s%s" % (
                len(failures), self.bootstrap_servers, shown, " ..." if len(failures) > 5 else ""))

    def reader(self, kind: str) -> "TopicReader":
        """A reader of a whole topic, from its first record (no consumer group, nothing committed)."""
        return TopicReader(self, self.topics[kind], TOPICS[kind][1])

    def _on_error(self, err: KafkaError) -> None:
        with self._lock:
            self._errors.append(err.str())

    def _last_error(self) -> str:
        with self._lock:
            return "; last error: %s" % self._errors[-1] if self._errors else ""

    def _check_topics(self, timeout: float) -> None:
        try:
            metadata = self._producer.list_topics(timeout=timeout)
        except KafkaException as e:
            raise BrokerUnreachable("the Kafka brokers at %s do not answer within %.0f s: %s%s" % (
                self.bootstrap_servers, timeout, e.args[0].str(), self._last_error())) from None
        missing = [t for t in self.topics.values() if t not in metadata.topics or metadata.topics[t].error is not None]
        if missing:
            raise TopicMissing("topics %s do not exist on %s: start the scorer once (it creates its topics) or check "
                               "topic_prefix" % (", ".join(missing), self.bootstrap_servers))


class TopicReader:
    """Reads a topic's committed records into dicts (the schema's field names, timestamps as ISO-8601)."""

    def __init__(self, publisher: Publisher, topic: str, value_type: str) -> None:
        self._publisher = publisher
        self._topic = topic
        self._schema = publisher.schemas.parsed(value_type)
        self._consumer = Consumer(dict(publisher._kafka, **{
            "group.id": "mmgr-client-%s" % uuid.uuid4().hex, "enable.auto.commit": False,
            "isolation.level": "read_committed", "logger": _KAFKA_LOG}))
        metadata = self._consumer.list_topics(topic, timeout=10)
        self._consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in sorted(metadata.topics[topic].partitions)])

    def poll(self, timeout: float) -> Optional[Dict[str, Any]]:
        """The next record's value, or None when none came within the timeout (or it was a deletion)."""
        msg = self._consumer.poll(timeout)
        if msg is None or msg.error() or msg.value() is None:
            if msg is not None and msg.error() and msg.error().code() != KafkaError._PARTITION_EOF:
                _KAFKA_LOG.warning("reading %s: %s", self._topic, msg.error().str())
            return None
        return codec.plain(codec.decode(msg.value(), self._schema, self._publisher.registry))

    def available(self, max_records: int = 100) -> List[Dict[str, Any]]:
        """The records the consumer has fetched already (in the background), without waiting for more."""
        out = []
        while True:
            batch = self._consumer.consume(max_records, 0)
            for msg in batch:
                if msg.error():
                    if msg.error().code() != KafkaError._PARTITION_EOF:
                        _KAFKA_LOG.warning("reading %s: %s", self._topic, msg.error().str())
                elif msg.value() is not None:
                    out.append(codec.plain(codec.decode(msg.value(), self._schema, self._publisher.registry)))
            if len(batch) < max_records:
                return out

    def close(self) -> None:
        self._consumer.close()
