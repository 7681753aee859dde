"""Where the stack under test is: the Java tests that drive these scripts start a broker, a registry and a
scorer in their JVM and pass their addresses in the environment."""
import json
import os
import sys

BOOTSTRAP = os.environ.get("MMGR_TEST_BOOTSTRAP")
REGISTRY = os.environ.get("MMGR_TEST_REGISTRY")
PREFIX = os.environ.get("MMGR_TEST_PREFIX", "mmgr.")
ARTIFACTS = os.environ.get("MMGR_TEST_ARTIFACTS")
CLOSED_PORT = os.environ.get("MMGR_TEST_CLOSED_PORT")
# the scorer's web server and the access token it requires (the test's own, made for the run)
WEB_URL = os.environ.get("MMGR_TEST_WEB_URL")
WEB_TOKEN = os.environ.get("MMGR_TEST_WEB_TOKEN")
# the S3-compatible store (s3proxy in the test's JVM) and a bucket in it; its endpoint and key pair are in the
# standard AWS variables (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) boto3 reads
S3_BUCKET = os.environ.get("MMGR_TEST_S3_BUCKET")


def report(kind, value):
    """One line the driving test parses: KIND <json>."""
    print("%s %s" % (kind, json.dumps(value, sort_keys=True)))
    sys.stdout.flush()


def mind2web_item(sample_id, steps):
    """A Mind2Web episode: gold (element, op, value) steps, each element with its box."""
    # the shared uiSteps, as a Python producer writes them: the client ships no family payload schema
    # (GroundTruth's deprecated fields are read whenever an item has no payload)
    return {"task": "mind2web", "sampleId": sample_id, "benchmark": "magma",
            "groundTruth": {"uiSteps": [{"element": e, "bbox": [40.0 * i, 0.0, 40.0 * i + 30.0, 20.0], "op": op,
                                         "value": v} for i, (e, op, v) in enumerate(steps)]}}


def mind2web_actions(steps):
    return {"uiActions": [{"element": e, "op": op, "value": v} for e, op, v in steps]}
