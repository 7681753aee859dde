#!/usr/bin/env python3
"""Publish generation events from Python, the way a training job would, through the repository's client.

Reads JSONL (one GenerationEvent a line, with the field names of schemas/GenerationEvent.avsc, exactly what
`bin/mmgr publish` takes) and sends each through mmgr_client's Publisher: checked against the schema,
serialized in the Confluent wire format against a Confluent-compatible registry (subject <topic>-value)
and keyed run/checkpoint/task/sample#seed.

    PYTHONPATH=clients/python produce_events.py --bootstrap-servers HOST:PORT --schema-registry-url URL \\
        --topic-prefix mmgr. EVENTS.jsonl

Training jobs use mmgr_client.Evaluator instead (clients/python/README.md); this replays files.
"""
import argparse
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "clients" / "python"))

from mmgr_client import MmgrError  # noqa: E402
from mmgr_client.publisher import Publisher  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bootstrap-servers", required=True)
    ap.add_argument("--schema-registry-url", required=True)
    ap.add_argument("--topic-prefix", default="mmgr.")
    ap.add_argument("events", help="JSONL file of generation events")
    args = ap.parse_args()
    try:
        publisher = Publisher(args.bootstrap_servers, args.schema_registry_url, args.topic_prefix)
        sent = 0
        with open(args.events, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                event = json.loads(line)
                key = "%s/%s/%s/%s#%d" % (event["runId"], event["checkpointId"], event["task"], event["sampleId"],
                                          event.get("seed", 0))
                publisher.send_record("generations", key, event, "line %d" % number)
                sent += 1
        publisher.flush()
    except MmgrError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    print("sent %d events to %s" % (sent, publisher.topics["generations"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
