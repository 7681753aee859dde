"""The partition of a sample, computed as the scorer computes it (``SampleKeys#partition`` in the Java code):
Kafka's murmur2 of ``run NUL checkpoint NUL task NUL sample NUL seed`` (UTF-8), made positive, modulo the
partition count. A generation event sent to its sample's partition is assembled by the stream task that read
it; on any other partition it is still scored, after one more hop through an internal topic."""
from __future__ import annotations

from typing import Any, Mapping, Optional

_M = 0x5BD1E995
_MASK = 0xFFFFFFFF


def murmur2(data: bytes) -> int:
    """Kafka's 32-bit murmur2 (seed 0x9747b28c), as a signed int like the Java one."""
    length = len(data)
    h = (0x9747B28C ^ length) & _MASK
    whole = length - length % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = (h * _M) & _MASK
        h ^= k
    rest = length % 4
    if rest == 3:
        h ^= data[whole + 2] << 16
    if rest >= 2:
        h ^= data[whole + 1] << 8
    if rest >= 1:
        h ^= data[whole]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def sample_partition(event: Mapping[str, Any], partitions: int) -> Optional[int]:
    """The partition of the event's sample on a topic of ``partitions`` partitions, or None (the producer's
    own choice) for an event whose key fields are not all there as strings and an int seed: the scorer
    scores an event on any partition, and tells what is wrong with one it cannot read."""
    fields = [event.get(f) for f in ("runId", "checkpointId", "task", "sampleId")]
    seed = event.get("seed", 0)  # the schema's default
    if not all(isinstance(f, str) for f in fields) or not isinstance(seed, int) or isinstance(seed, bool):
        return None
    canonical = "\0".join(fields + [str(seed)])
    return (murmur2(canonical.encode("utf-8")) & 0x7FFFFFFF) % partitions
