"""Outputs to S3: publishes the maze benchmark, then one checkpoint whose outputs (the solutions, as a path and
as bytes in turn) are uploaded to s3://$MMGR_TEST_S3_BUCKET/runs/ with boto3, marks it done and prints the
scorer's verdict (RESULT) and each reference sent (EVENT). The scorer reads the outputs from the store."""
import json
import os
import pathlib
import sys

from mmgr_client import Evaluator
from stack import BOOTSTRAP, PREFIX, REGISTRY, S3_BUCKET, report

RUN = os.environ["MMGR_TEST_RUN"]


def main():
    with open(os.environ["MMGR_TEST_MAZE_ITEMS"], encoding="utf-8") as f:
        mazes = [json.loads(line) for line in f if line.strip()]
    maze_dir = pathlib.Path(os.environ["MMGR_TEST_MAZE_ITEMS"]).parent
    # inline_max_bytes=0: every output goes to the store, however small
    with Evaluator(BOOTSTRAP, REGISTRY, run_id=RUN, model="tiny-policy", artifact_dir="s3://%s/runs" % S3_BUCKET,
                   inline_max_bytes=0, topic_prefix=PREFIX) as ev:
        ev.publish_benchmark(mazes)
        for i, item in enumerate(mazes):
            file = maze_dir / ("%s-solution.png" % item["sampleId"])
            event = ev.submit("ckpt-s3", 300, "maze", item["sampleId"], output=str(file) if i % 2 else file.read_bytes())
            report("EVENT", {"sample": item["sampleId"], "artifact": event["artifacts"][0]})
        report("RESULT", ev.wait("ckpt-s3"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
