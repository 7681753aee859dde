#!/usr/bin/env python3
"""Publish generation events from Python, the way a training job would.

Reads JSONL (one GenerationEvent a line, with the field names of schemas/GenerationEvent.avsc,
exactly what `bin/mmgr publish` takes), serializes each with confluent-kafka's Avro serializer
against a Confluent-compatible schema registry (subject <topic>-value) and produces it keyed
run/checkpoint/task/sample#seed.

    produce_events.py --bootstrap-servers HOST:PORT --schema-registry-url URL \
        --schema GenerationEvent.json --topic mmgr.generations EVENTS.jsonl

The schema must be self-contained (all named types inline): `bin/mmgr` tests write it from the
generated class; the .avsc files in schemas/ refer to each other by name.

Uses confluent_kafka.schema_registry.avro.AvroSerializer when fastavro is installed, else the
package's older confluent_kafka.avro serializer over the avro library (Debian packages
python3-confluent-kafka and python3-avro, but not fastavro).
"""
import argparse
import datetime
import json
import sys

from confluent_kafka import Producer

LOGICAL_TIMESTAMPS = ("timestamp-millis", "timestamp-micros")


def parse_time(value):
    if isinstance(value, datetime.datetime):
        return value
    if isinstance(value, (int, float)):
        return datetime.datetime.fromtimestamp(value / 1000.0, tz=datetime.timezone.utc)
    text = str(value).replace("Z", "+00:00")
    parsed = datetime.datetime.fromisoformat(text)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.timezone.utc)


class Shapes:
    """Named types of a schema, to fill defaults and convert timestamps before serializing."""

    def __init__(self, schema):
        self.named = {}
        self._collect(schema, None)

    def _collect(self, s, namespace):
        if isinstance(s, list):
            for branch in s:
                self._collect(branch, namespace)
        elif isinstance(s, dict):
            kind = s.get("type")
            if kind in ("record", "enum", "fixed"):
                ns = s.get("namespace", namespace)
                full = s["name"] if "." in s["name"] or not ns else ns + "." + s["name"]
                self.named[full] = s
                self.named[s["name"]] = s
                for f in s.get("fields", []):
                    self._collect(f["type"], ns)
            elif kind == "array":
                self._collect(s["items"], namespace)
            elif kind == "map":
                self._collect(s["values"], namespace)

    def resolve(self, s):
        if isinstance(s, str) and s in self.named:
            return self.named[s]
        return s

    def complete(self, value, s):
        """The value with missing record fields set to their defaults and timestamps as datetimes."""
        s = self.resolve(s)
        if isinstance(s, list):
            if value is None:
                return None
            for branch in s:
                b = self.resolve(branch)
                if b == "null":
                    continue
                if self._fits(value, b):
                    return self.complete(value, b)
            return value
        if isinstance(s, dict):
            kind = s.get("type")
            if kind == "record":
                out = {}
                for f in s["fields"]:
                    if f["name"] in value:
                        out[f["name"]] = self.complete(value[f["name"]], f["type"])
                    elif "default" in f:
                        out[f["name"]] = f["default"]
                    else:
                        raise ValueError("field %s is required" % f["name"])
                return out
            if kind == "array":
                return [self.complete(v, s["items"]) for v in value]
            if kind == "map":
                return {k: self.complete(v, s["values"]) for k, v in value.items()}
            if s.get("logicalType") in LOGICAL_TIMESTAMPS:
                return parse_time(value)
            return value
        if s in ("double", "float") and isinstance(value, int):
            return float(value)
        return value

    def _fits(self, value, s):
        if isinstance(s, dict):
            kind = s.get("type")
            return (kind == "record" and isinstance(value, dict)) or (kind == "map" and isinstance(value, dict)) \
                or (kind == "array" and isinstance(value, list)) or (kind in ("long", "int") and isinstance(value, (int, str)))
        return {"string": isinstance(value, str), "boolean": isinstance(value, bool),
                "int": isinstance(value, int) and not isinstance(value, bool),
                "long": isinstance(value, int) and not isinstance(value, bool),
                "double": isinstance(value, (int, float)) and not isinstance(value, bool),
                "float": isinstance(value, (int, float)) and not isinstance(value, bool),
                "bytes": isinstance(value, (bytes, str))}.get(s, False)


def serializer(schema_text, registry_url, topic):
    """A function event -> bytes in the Confluent wire format, and the name of the serializer used."""
    try:
        from confluent_kafka.schema_registry import SchemaRegistryClient
        from confluent_kafka.schema_registry.avro import AvroSerializer
        from confluent_kafka.serialization import MessageField, SerializationContext
        client = SchemaRegistryClient({"url": registry_url})
        avro_serializer = AvroSerializer(client, schema_text)
        ctx = SerializationContext(topic, MessageField.VALUE)
        return (lambda event: avro_serializer(event, ctx)), "confluent_kafka.schema_registry.avro.AvroSerializer"
    except ImportError:
        from confluent_kafka.avro import CachedSchemaRegistryClient, loads
        from confluent_kafka.avro.serializer.message_serializer import MessageSerializer
        legacy = MessageSerializer(CachedSchemaRegistryClient({"url": registry_url}))
        parsed = loads(schema_text)
        return (lambda event: legacy.encode_record_with_schema(topic, parsed, event)), \
            "confluent_kafka.avro MessageSerializer (avro)"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootstrap-servers", required=True)
    ap.add_argument("--schema-registry-url", required=True)
    ap.add_argument("--schema", required=True, help="self-contained GenerationEvent schema (JSON)")
    ap.add_argument("--topic", required=True)
    ap.add_argument("events", help="JSONL file of generation events")
    args = ap.parse_args()

    with open(args.schema, encoding="utf-8") as f:
        schema_text = f.read()
    shapes = Shapes(json.loads(schema_text))
    root = json.loads(schema_text)
    serialize, used = serializer(schema_text, args.schema_registry_url, args.topic)
    print("serializer: " + used)

    producer = Producer({"bootstrap.servers": args.bootstrap_servers, "enable.idempotence": True, "acks": "all"})
    failures = []

    def report(err, msg):
        if err is not None:
            failures.append(str(err))

    sent = 0
    with open(args.events, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            raw = json.loads(line)
            event = shapes.complete(raw, root)
            key = "%s/%s/%s/%s#%d" % (event["runId"], event["checkpointId"], event["task"], event["sampleId"],
                                      event.get("seed", 0))
            producer.produce(args.topic, key=key.encode("utf-8"), value=serialize(event), on_delivery=report)
            producer.poll(0)
            sent += 1
    remaining = producer.flush(60)
    if failures or remaining:
        print("not delivered: %d; errors: %s" % (remaining, failures), file=sys.stderr)
        return 1
    print("sent %d events to %s" % (sent, args.topic))
    return 0


if __name__ == "__main__":
    sys.exit(main())
