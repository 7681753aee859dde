"""Publishes a benchmark of mazes (images from the scorer's generator) and Mind2Web episodes, then two
checkpoints' outputs, marks both done and prints the scorer's verdicts (RESULT lines) and what was sent
(EVENT lines). Checkpoint 1 answers every maze with its problem image (no path: a fail) and gets one
episode right, one two-thirds right and one wrong; checkpoint 2 answers with the solutions and every step
right. The maze outputs go as a path, bytes, a PIL image and a numpy array in turn."""
import hashlib
import json
import os
import pathlib
import sys
import time

import numpy as np
from PIL import Image

from mmgr_client import Evaluator, ScorerApi
from stack import ARTIFACTS, BOOTSTRAP, PREFIX, REGISTRY, WEB_TOKEN, WEB_URL, mind2web_actions, mind2web_item, report

RUN = os.environ["MMGR_TEST_RUN"]
EPISODES = {"ep-a": [("a0", "CLICK", None), ("a1", "TYPE", "new york"), ("a2", "CLICK", None)],
            "ep-b": [("b0", "CLICK", None), ("b1", "SELECT", "economy"), ("b2", "CLICK", None)],
            "ep-c": [("c0", "TYPE", "2 adults"), ("c1", "CLICK", None), ("c2", "CLICK", None)]}


def maze_output(kind, file):
    if kind == 0:
        return str(file)
    if kind == 1:
        return file.read_bytes()
    if kind == 2:
        return Image.open(file)
    return np.asarray(Image.open(file).convert("RGB"))


def main():
    with open(os.environ["MMGR_TEST_MAZE_ITEMS"], encoding="utf-8") as f:
        mazes = [json.loads(line) for line in f if line.strip()]
    maze_dir = pathlib.Path(os.environ["MMGR_TEST_MAZE_ITEMS"]).parent
    with Evaluator(BOOTSTRAP, REGISTRY, run_id=RUN, model="tiny-policy", artifact_dir=ARTIFACTS,
                   topic_prefix=PREFIX) as ev:
        items = mazes + [mind2web_item(sid, steps) for sid, steps in EPISODES.items()]
        report("PUBLISHED", ev.publish_benchmark(items))

        for ckpt, step, picture in (("ckpt-100", 100, "problem"), ("ckpt-200", 200, "solution")):
            for i, item in enumerate(mazes):
                file = maze_dir / ("%s-%s.png" % (item["sampleId"], picture))
                event = ev.submit(ckpt, step, "maze", item["sampleId"], output=maze_output(i % 4, file))
                report("EVENT", {"ckpt": ckpt, "sample": item["sampleId"], "modality": event["modality"],
                                 "artifact": event["artifacts"][0]})
            for n, (sid, steps) in enumerate(EPISODES.items()):
                predicted = list(steps)
                if ckpt == "ckpt-100" and n == 1:
                    predicted[2] = ("wrong", "CLICK", None)
                if ckpt == "ckpt-100" and n == 2:
                    predicted = [("x", "CLICK", None)] * 3
                event = ev.submit(ckpt, step, "mind2web", sid, inputs=mind2web_actions(predicted))
                report("EVENT", {"ckpt": ckpt, "sample": sid, "modality": event["modality"], "artifact": None})
            report("DONE", {"ckpt": ckpt, "doneId": ev.checkpoint_done(ckpt)})
        for ckpt in ("ckpt-100", "ckpt-200"):
            t0 = time.monotonic()
            verdict = ev.wait(ckpt)
            report("RESULT", dict(verdict, ckpt=ckpt, seconds=round(time.monotonic() - t0, 2)))
    # the same rows from the scorer's REST API, with its token; and a maze output's bytes as the scorer serves them
    api = ScorerApi(WEB_URL, token=WEB_TOKEN)
    report("WEB", api.leaderboard(run=RUN, task="*"))
    sample = api.sample(RUN, "ckpt-200", "maze", mazes[0]["sampleId"])
    ref = sample["artifacts"][0]
    served = api.artifact(ref["href"])
    report("ARTIFACT", {"recorded": ref["sha256"], "served": hashlib.sha256(served).hexdigest(), "mediaType": ref["mediaType"]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
