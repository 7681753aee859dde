"""The client's own tests: every error it raises, and its conversions. Tests that need the stack (the Java
test PythonClientTest runs this module with a broker, registry and scorer in its JVM) skip without it."""
import hashlib
import io
import json
import os
import pathlib
import tempfile
import time
import unittest
import unittest.mock
import urllib.request
import warnings

import numpy as np
from PIL import Image

from mmgr_client import (ArtifactOutsideDirectory, ArtifactUploadFailed, BrokerUnreachable, DeliveryFailed, Evaluator, ModalityUnknown,
                         RegistryUnreachable, SchemaMismatch, ScorerApi, ScorerTimeout, ScorerUnreachable, TopicMissing,
                         UnknownTask, VideoEncoderMissing, WebUnauthorized)
from mmgr_client import MmgrError, artifacts, codec, tasks
from mmgr_client.publisher import TOPICS
from mmgr_client.schemas import SchemaSet
from stack import ARTIFACTS, BOOTSTRAP, CLOSED_PORT, PREFIX, REGISTRY, S3_BUCKET, WEB_TOKEN, WEB_URL, mind2web_actions

needs_stack = unittest.skipUnless(BOOTSTRAP and REGISTRY and ARTIFACTS and CLOSED_PORT,
                                  "needs the stack PythonClientTest starts")
needs_web = unittest.skipUnless(WEB_URL and WEB_TOKEN and CLOSED_PORT, "needs the scorer's web server PythonClientTest starts")
needs_s3 = unittest.skipUnless(BOOTSTRAP and REGISTRY and S3_BUCKET and CLOSED_PORT and os.environ.get("AWS_ENDPOINT_URL"),
                               "needs the S3-compatible store PythonClientTest starts")
needs_ffmpeg = unittest.skipUnless(artifacts.ffmpeg(), "needs ffmpeg (Debian: apt-get install ffmpeg)")
# topics with no scorer behind them; the generations subject of the first holds an incompatible schema
MISMATCH = "mismatch."
NO_SCORER = "noscorer."


def png(color=(255, 0, 0), size=(8, 6)):
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def create_topics(prefix):
    from confluent_kafka.admin import AdminClient, NewTopic
    admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
    futures = admin.create_topics([NewTopic(prefix + t, 1, 1) for t in TOPICS])
    for f in futures.values():
        try:
            f.result(30)
        except Exception as e:  # already there from an earlier run
            if "TOPIC_ALREADY_EXISTS" not in str(e):
                raise


@needs_stack
class Errors(unittest.TestCase):
    """One test per error the client raises on purpose."""

    @classmethod
    def setUpClass(cls):
        cls.ev = Evaluator(BOOTSTRAP, REGISTRY, run_id="py-errors", model="m", artifact_dir=ARTIFACTS, topic_prefix=PREFIX)

    @classmethod
    def tearDownClass(cls):
        cls.ev.close()

    def test_unknown_task(self):
        with self.assertRaises(UnknownTask) as e:
            self.ev.submit("c1", 1, "mind2wb", "ep0", inputs=mind2web_actions([("a", "CLICK", None)]))
        self.assertIn("unknown task 'mind2wb'", str(e.exception))
        self.assertIn("did you mean 'mind2web'", str(e.exception))

    def test_modality_not_accepted(self):
        with self.assertRaises(ModalityUnknown) as e:
            self.ev.submit("c1", 1, "mind2web", "ep0", inputs=mind2web_actions([("a", "CLICK", None)]), modality="image")
        self.assertIn("task mind2web accepts ui", str(e.exception))

    def test_a_field_the_schema_does_not_have(self):
        with self.assertRaises(SchemaMismatch) as e:
            self.ev.submit("c1", 1, "mind2web", "ep0", inputs={"uiAction": [{"element": "a", "op": "CLICK"}]}, modality="ui")
        self.assertIn("GenerationEvent (py-errors/c1/mind2web/ep0#0).inputs has no field 'uiAction'", str(e.exception))
        self.assertIn("uiActions", str(e.exception))

    def test_a_value_of_the_wrong_type(self):
        with self.assertRaises(SchemaMismatch) as e:
            self.ev.submit("c1", 1, "mind2web", "ep0", inputs={"uiActions": [{"element": "a", "op": 3}]})
        self.assertIn(".inputs.uiActions[0].op must be", str(e.exception))
        with self.assertRaises(SchemaMismatch) as e:
            self.ev.submit("c1", 1, "mind2web", "ep0", seed="0", inputs=mind2web_actions([("a", "CLICK", None)]))
        self.assertIn(".seed must be an integer, not str '0'", str(e.exception))

    def test_a_required_field_missing(self):
        with self.assertRaises(SchemaMismatch) as e:
            self.ev.publish_benchmark([{"task": "mind2web", "sampleId": "no-truth"}])
        self.assertIn("BenchmarkItem (item 0).groundTruth is required", str(e.exception))

    def test_the_registry_refuses_an_incompatible_schema(self):
        create_topics(MISMATCH)
        old = {"type": "record", "name": "GenerationEvent", "namespace": "io.mmgr.stream.avro",
               "fields": [{"name": "legacy", "type": "int"}]}
        req = urllib.request.Request(REGISTRY + "/subjects/%sgenerations-value/versions" % MISMATCH, method="POST",
                                     data=json.dumps({"schema": json.dumps(old)}).encode(),
                                     headers={"Content-Type": "application/vnd.schemaregistry.v1+json"})
        urllib.request.urlopen(req, timeout=10).read()
        with Evaluator(BOOTSTRAP, REGISTRY, run_id="r", model="m", topic_prefix=MISMATCH) as ev:
            with self.assertRaises(SchemaMismatch) as e:
                ev.submit("c1", 1, "mind2web", "ep0", inputs=mind2web_actions([("a", "CLICK", None)]))
        self.assertIn("refuses GenerationEvent for subject mismatch.generations-value", str(e.exception))
        self.assertIn("HTTP 409", str(e.exception))

    def test_artifact_outside_the_directory(self):
        with tempfile.TemporaryDirectory() as elsewhere:
            outside = pathlib.Path(elsewhere) / "out.png"
            outside.write_bytes(png())
            with self.assertRaises(ArtifactOutsideDirectory) as e:
                self.ev.submit("c1", 1, "maze", "m1", output=outside)
        self.assertIn("is outside the artifact directory %s" % pathlib.Path(ARTIFACTS).resolve(), str(e.exception))

    def test_a_symlink_out_of_the_directory(self):
        with tempfile.TemporaryDirectory() as elsewhere:
            target = pathlib.Path(elsewhere) / "secret.png"
            target.write_bytes(png())
            link = pathlib.Path(ARTIFACTS) / "link-out.png"
            if link.is_symlink():
                link.unlink()
            link.symlink_to(target)
            with self.assertRaises(ArtifactOutsideDirectory):
                self.ev.submit("c1", 1, "maze", "m1", output=link)

    def test_broker_unreachable(self):
        t0 = time.monotonic()
        with self.assertRaises(BrokerUnreachable) as e:
            Evaluator("127.0.0.1:%s" % CLOSED_PORT, REGISTRY, run_id="r", model="m", connect_timeout=2)
        self.assertIn("the Kafka brokers at 127.0.0.1:%s do not answer within 2 s" % CLOSED_PORT, str(e.exception))
        self.assertLess(time.monotonic() - t0, 30)

    def test_registry_unreachable(self):
        with Evaluator(BOOTSTRAP, "http://127.0.0.1:%s" % CLOSED_PORT, run_id="r", model="m", topic_prefix=PREFIX) as ev:
            with self.assertRaises(RegistryUnreachable) as e:
                ev.submit("c1", 1, "mind2web", "ep0", inputs=mind2web_actions([("a", "CLICK", None)]))
        self.assertIn("the schema registry at http://127.0.0.1:%s does not answer" % CLOSED_PORT, str(e.exception))

    def test_topics_missing(self):
        with self.assertRaises(TopicMissing) as e:
            Evaluator(BOOTSTRAP, REGISTRY, run_id="r", model="m", topic_prefix="nothing-here.")
        self.assertIn("nothing-here.generations", str(e.exception))
        self.assertIn("start the scorer once", str(e.exception))

    def test_delivery_refused_by_the_broker(self):
        # the client would send 2 MB; the broker takes records of up to 1 MB
        with Evaluator(BOOTSTRAP, REGISTRY, run_id="py-errors", model="m", topic_prefix=PREFIX,
                       message_max_bytes=8_000_000, delivery_timeout=20) as ev:
            ev.submit("c1", 1, "mind2web", "big", inputs=mind2web_actions([("a", "CLICK", None)]),
                      attributes={"padding": "x" * 2_000_000})
            with self.assertRaises(DeliveryFailed) as e:
                ev.flush()
        self.assertIn("1 records were not delivered", str(e.exception))
        self.assertIn("py-errors/c1/mind2web/big#0", str(e.exception))

    def test_frames_without_an_encoder(self):
        saved = dict(os.environ)
        try:
            os.environ.pop("MMGR_FFMPEG", None)
            os.environ["PATH"] = tempfile.mkdtemp()
            frames = [np.zeros((8, 8, 3), dtype=np.uint8)] * 3
            with self.assertRaises(VideoEncoderMissing) as e:
                self.ev.submit("c1", 1, "maze", "m1", output=frames)
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.assertIn("apt-get install ffmpeg", str(e.exception))

    def test_no_scorer_answers(self):
        create_topics(NO_SCORER)
        with Evaluator(BOOTSTRAP, REGISTRY, run_id="r", model="m", topic_prefix=NO_SCORER) as ev:
            t0 = time.monotonic()
            with self.assertRaises(ScorerTimeout) as e:
                ev.wait("c1", timeout=1, answer_grace=1)
            self.assertGreaterEqual(time.monotonic() - t0, 2)
        self.assertIn("no answer about r/c1 on noscorer.checkpoint-status", str(e.exception))


class Conversions(unittest.TestCase):
    """What the client does to records and outputs before sending them."""

    def test_schemas_are_self_contained(self):
        doc = SchemaSet().document("GenerationEvent")
        artifacts_field = [f for f in doc["fields"] if f["name"] == "artifacts"][0]
        self.assertEqual(artifacts_field["type"]["items"]["name"], "ArtifactRef")
        self.assertEqual(SchemaSet().parsed("CheckpointStatus").fullname, "io.mmgr.stream.avro.CheckpointStatus")

    def test_shape_fills_defaults_and_converts_numpy_and_times(self):
        schema = SchemaSet().parsed("GenerationEvent")
        event = codec.shape(schema, {"runId": "r", "model": "m", "checkpointId": "c", "trainingStep": np.int64(5),
                                     "task": "mind2web", "sampleId": "s", "modality": "ui",
                                     "inputs": {"values": {"lpips": np.float32(0.25)}},
                                     "producedAt": "2026-12-01T10:00:00Z"}, "e")
        self.assertEqual(event["seed"], 0)
        self.assertEqual(event["artifacts"], [])
        self.assertIsNone(event["inputs"]["uiActions"])
        self.assertEqual(event["inputs"]["values"], {"lpips": 0.25})
        self.assertIs(type(event["trainingStep"]), int)
        self.assertEqual(event["producedAt"].isoformat(), "2026-12-01T10:00:00+00:00")
        registry = type("R", (), {"schema": lambda self, i: schema})()
        decoded = codec.decode(codec.encode(schema, 7, event), schema, registry)
        self.assertEqual(codec.plain(decoded)["producedAt"], "2026-12-01T10:00:00.000Z")

    def test_a_family_payload_travels_as_base64_in_json(self):
        # benchmark-items.jsonl from the scorer's generators carries GroundTruth.payload as base64
        schema = SchemaSet().parsed("GroundTruth")
        gt = codec.shape(schema, {"family": "maze", "payload": "wwEAAQID"}, "g")
        self.assertEqual(gt["payload"], b"\xc3\x01\x00\x01\x02\x03")
        registry = type("R", (), {"schema": lambda self, i: schema})()
        decoded = codec.decode(codec.encode(schema, 7, gt), schema, registry)
        self.assertEqual(codec.plain(decoded)["payload"], "wwEAAQID")
        with self.assertRaises(codec.SchemaMismatch) as e:
            codec.shape(schema, {"payload": "not base64!"}, "g")
        self.assertIn("g.payload must be bytes or base64 text", str(e.exception))

    def test_image_outputs_become_pngs(self):
        for output in (png(size=(8, 6)), Image.new("RGB", (8, 6)), np.zeros((6, 8, 3), dtype=np.uint8),
                       np.ones((6, 8), dtype=np.float64)):
            art = artifacts.from_output(output)
            self.assertEqual(art.media_type, "image/png", type(output))
            self.assertEqual((art.width, art.height), (8, 6), type(output))
            self.assertEqual(Image.open(io.BytesIO(art.data)).size, (8, 6))

    def test_small_outputs_inline_and_large_ones_under_the_directory(self):
        with tempfile.TemporaryDirectory() as d:
            store = artifacts.ArtifactStore(d, inline_max_bytes=100)
            small = store.reference(artifacts.Artifact("image/png", data=b"\x89PNG\r\n\x1a\n" + b"0" * 10), "output", ["r", "c", "s"])
            self.assertTrue(small["uri"].startswith("data:image/png;base64,"))
            big = store.reference(artifacts.Artifact("image/png", data=b"\x89PNG\r\n\x1a\n" + b"1" * 200), "output",
                                  ["r", "c/../x", "s#0"])
            path = pathlib.Path(big["uri"][len("file://"):])
            self.assertTrue(path.is_file())
            self.assertEqual(path.parent, pathlib.Path(d).resolve() / "r" / "c_.._x")
            self.assertEqual(path.stat().st_mode & 0o777, 0o644)

    @needs_ffmpeg
    def test_frames_encode_to_mp4(self):
        frames = [np.full((31, 41, 3), i * 20, dtype=np.uint8) for i in range(10)]
        art = artifacts.from_output(frames, fps=5)
        self.assertEqual(art.media_type, "video/mp4")
        self.assertEqual(artifacts.sniff(art.data[:64]), "video/mp4")
        self.assertEqual((art.frame_count, art.fps, art.width, art.height), (10, 5.0, 42, 32))

    def test_modality_inference(self):
        known = tasks.catalog()
        self.assertEqual(tasks.infer_modality("maze", known["maze"]["modalities"], "video", None), "video")
        self.assertEqual(tasks.infer_modality("maze", known["maze"]["modalities"], "image", None), "image")
        self.assertEqual(tasks.infer_modality("mind2web", known["mind2web"]["modalities"], None, {"uiActions": []}), "ui")
        with self.assertRaises(ModalityUnknown):
            tasks.infer_modality("maze", known["maze"]["modalities"], None, None)


if __name__ == "__main__":
    unittest.main()


@needs_s3
class S3Uploads(unittest.TestCase):
    """artifact_dir="s3://bucket/prefix": outputs are uploaded with boto3 and referenced by URI and digest."""

    def setUp(self):
        # botocore keeps its pooled connections open until exit; unittest would print a ResourceWarning for each
        warnings.simplefilter("ignore", ResourceWarning)

    def evaluator(self, artifact_dir):
        return Evaluator(BOOTSTRAP, REGISTRY, run_id="py-s3-unit", model="m", artifact_dir=artifact_dir,
                         inline_max_bytes=0, topic_prefix=PREFIX)

    def test_s3_upload_sends_the_reference_and_digest(self):
        import boto3
        image = png((0, 200, 0), (10, 7))
        with tempfile.TemporaryDirectory() as elsewhere, self.evaluator("s3://%s/unit/" % S3_BUCKET) as ev:
            as_bytes = ev.submit("c1", 1, "maze", "m1", output=image)["artifacts"][0]
            # a file is uploaded from wherever it is: no shared directory is involved
            path = pathlib.Path(elsewhere) / "out.png"
            path.write_bytes(image)
            as_file = ev.submit("c1", 1, "maze", "m2", output=str(path))["artifacts"][0]
        digest = hashlib.sha256(image).hexdigest()
        client = boto3.session.Session().client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                                                region_name=os.environ.get("AWS_REGION"))
        for ref, sample in ((as_bytes, "m1"), (as_file, "m2")):
            prefix = "s3://%s/unit/py-s3-unit/c1/maze/" % S3_BUCKET
            self.assertTrue(ref["uri"].startswith(prefix), ref["uri"])
            self.assertEqual(ref["uri"], prefix + "%s.seed0.%s.png" % (sample, digest[:12]))
            self.assertEqual((ref["sha256"], ref["sizeBytes"], ref["mediaType"]), (digest, len(image), "image/png"))
            stored = client.get_object(Bucket=S3_BUCKET, Key=ref["uri"][len("s3://%s/" % S3_BUCKET):])
            self.assertEqual(stored["Body"].read(), image)
            self.assertEqual(stored["Metadata"].get("sha256"), digest)

    def test_s3_bucket_missing(self):
        with self.evaluator("s3://no-such-bucket-here/p") as ev:
            with self.assertRaises(ArtifactUploadFailed) as e:
                ev.submit("c1", 1, "maze", "m1", output=png())
        self.assertIn("cannot upload s3://no-such-bucket-here/p/py-s3-unit/c1/maze/m1.seed0.", str(e.exception))
        self.assertIn("404 NoSuchBucket (the bucket does not exist)", str(e.exception))

    def test_s3_store_unreachable(self):
        endpoint = "http://127.0.0.1:%s" % CLOSED_PORT
        with unittest.mock.patch.dict(os.environ, {"AWS_ENDPOINT_URL_S3": endpoint, "AWS_ENDPOINT_URL": endpoint}):
            ev = self.evaluator("s3://%s/unit" % S3_BUCKET)
        with ev:
            with self.assertRaises(ArtifactUploadFailed) as e:
                ev.submit("c1", 1, "maze", "m1", output=png())
        self.assertIn("the store at %s cannot be reached" % endpoint, str(e.exception))


@needs_web
class Web(unittest.TestCase):
    """The REST API takes the scorer's access token: from token= or MMGR_WEB_TOKEN, never echoed."""

    def setUp(self):
        self.saved = os.environ.pop("MMGR_WEB_TOKEN", None)

    def tearDown(self):
        os.environ.pop("MMGR_WEB_TOKEN", None)
        if self.saved is not None:
            os.environ["MMGR_WEB_TOKEN"] = self.saved

    def test_web_without_the_token(self):
        with self.assertRaises(WebUnauthorized) as e:
            ScorerApi(WEB_URL).runs()
        self.assertIn("MMGR_WEB_TOKEN", str(e.exception))

    def test_web_with_a_wrong_token(self):
        with self.assertRaises(WebUnauthorized) as e:
            ScorerApi(WEB_URL, token="not-the-token-" + "0" * 20).runs()
        self.assertIn("refused", str(e.exception))
        self.assertNotIn("not-the-token", str(e.exception))

    def test_web_token_from_the_environment(self):
        os.environ["MMGR_WEB_TOKEN"] = WEB_TOKEN
        self.assertIsInstance(ScorerApi(WEB_URL).runs(), list)
        with self.assertRaises(MmgrError) as e:
            ScorerApi(WEB_URL).get("/api/progress")
        self.assertIn("parameter 'run' is required", str(e.exception))
        self.assertNotIn(WEB_TOKEN, str(e.exception))

    def test_web_unreachable(self):
        with self.assertRaises(ScorerUnreachable):
            ScorerApi("http://127.0.0.1:%s" % CLOSED_PORT, token=WEB_TOKEN, timeout=5).runs()
