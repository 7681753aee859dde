"""One maze answered with a list of frames (the solution drawn, as a still video): the client encodes them to
MP4 with ffmpeg, infers the video modality, and the driving test checks that the scorer decoded every frame."""
import json
import os
import pathlib
import sys

from PIL import Image

from mmgr_client import Evaluator
from stack import ARTIFACTS, BOOTSTRAP, PREFIX, REGISTRY, report

FRAMES = 12


def main():
    with open(os.environ["MMGR_TEST_MAZE_ITEMS"], encoding="utf-8") as f:
        item = json.loads(f.readline())
    solution = pathlib.Path(os.environ["MMGR_TEST_MAZE_ITEMS"]).parent / ("%s-solution.png" % item["sampleId"])
    with Evaluator(BOOTSTRAP, REGISTRY, run_id=os.environ["MMGR_TEST_RUN"], model="video-model",
                   artifact_dir=ARTIFACTS, topic_prefix=PREFIX) as ev:
        ev.publish_benchmark([item])
        frames = [Image.open(solution).convert("RGB") for _ in range(FRAMES)]
        event = ev.submit("ckpt-1", 1, "maze", item["sampleId"], output=frames, fps=8)
        report("EVENT", {"modality": event["modality"], "artifact": event["artifacts"][0]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
