"""Three ScreenSpot clicks expected, two submitted: once both are scored, a marker with a timeout is answered
timed_out with the missing one counted. Then the late click is submitted (no new marker): the scorer rewrites its answer, which the
driving test reads from the topic."""
import os
import sys

from mmgr_client import Evaluator
from stack import BOOTSTRAP, PREFIX, REGISTRY, report

RUN = os.environ["MMGR_TEST_RUN"]
TIMEOUT = float(os.environ.get("MMGR_TEST_TIMEOUT", "4"))
CLICKS = {"k0": [10.0, 10.0, 50.0, 30.0], "k1": [100.0, 100.0, 140.0, 120.0], "k2": [200.0, 50.0, 260.0, 80.0]}


def click(sample):
    x1, y1, x2, y2 = CLICKS[sample]
    return {"uiActions": [{"point": [(x1 + x2) / 2, (y1 + y2) / 2], "op": "CLICK"}]}


def main():
    with Evaluator(BOOTSTRAP, REGISTRY, run_id=RUN, model="clicker", topic_prefix=PREFIX) as ev:
        # the shared targetBox/elementKind (deprecated, read when an item has no payload): see stack.mind2web_item
        ev.publish_benchmark({"task": "screenspot", "sampleId": s, "benchmark": "magma",
                              "groundTruth": {"targetBox": box, "elementKind": "text"}} for s, box in CLICKS.items())
        for s in ("k0", "k1"):
            ev.submit("ckpt-1", 1, "screenspot", s, inputs=click(s))
        # first until both are scored (a marker expecting 2), so that however busy the machine, the
        # deadline below finds them scored and the third one missing
        ev.checkpoint_done("ckpt-1", expected=2)
        report("SCORED", ev.wait("ckpt-1"))
        # then the benchmark's 3, with the scorer's deadline TIMEOUT from now
        ev.checkpoint_done("ckpt-1", timeout=TIMEOUT)
        verdict = ev.wait("ckpt-1")
        report("RESULT", verdict)
        ev.submit("ckpt-1", 1, "screenspot", "k2", inputs=click("k2"))
        ev.flush()
        report("LATE", {"sample": "k2"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
