#!/usr/bin/env python3
"""A real (tiny) training run evaluated by mmgr-stream while it trains.

A numpy web agent (webagent.py) learns Mind2Web-style form-filling steps. The run publishes its benchmark
(Mind2Web episodes with their gold steps) once, then every --checkpoint-every steps saves a checkpoint,
runs the agent on every benchmark episode, submits the predicted steps, marks the checkpoint done and
waits for the scorer's verdict: the step success rate with its interval, the comparison with the previous
and the best earlier checkpoint, alerts. It logs the verdict and keeps the checkpoint the scorer ranks
best (best.npz). --bad-data-from STEP simulates a data-pipeline bug from that step on (the loader swaps
the sub-goals of three pairs of field kinds), so that later checkpoints get worse and the scorer says so.

    examples/training/train_mind2web.py --out /tmp/webagent        # beside bin/mmgr run (reads .mmgr/endpoints.properties)
    examples/training/train_mind2web.py --bootstrap-servers kafka:9092 --schema-registry-url http://registry:8081 \\
        --out /tmp/webagent --bad-data-from 150
"""
import argparse
import json
import logging
import pathlib
import shutil
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "clients" / "python"))

from mmgr_client import MmgrError  # noqa: E402
import scorer_args  # noqa: E402
from webagent import KINDS, Agent, World, step_success_rate  # noqa: E402

LOG = logging.getLogger("train")
# departure/arrival, date/passengers and search/menu swapped: the "bad data" of --bad-data-from
SWAPS = {0: 1, 1: 0, 2: 3, 3: 2, 5: 7, 7: 5}


def benchmark_items(episodes):
    # groundTruth in the shared fields Magma items carried before its payload (GroundTruth.uiSteps, deprecated
    # but read whenever an item has no payload, so the scores are the same): a payload is the single-object
    # encoding of tasks/magma/MagmaTruth.avsc, a schema the Python client does not ship (it carries schemas/ only)
    return [{"task": "mind2web", "sampleId": e.episode_id, "benchmark": "magma", "version": "webagent-1",
             "prompt": "Book a flight: " + ", ".join(KINDS[s.kind][0] for s in e.steps),
             "groundTruth": {"uiSteps": e.gold_steps()}} for e in episodes]


def describe(verdict):
    """One log line of the scorer's verdict on a checkpoint."""
    o = verdict["overall"]
    text = "%s: step success %s (%d of %d scored" % (
        verdict["status"], _rate(o["primaryRate"], o["primaryCiLow"], o["primaryCiHigh"]), o["samplesScored"],
        o["samplesExpected"])
    text += ", %d pending)" % o["samplesPending"] if o["samplesPending"] else ")"
    for name in ("vsPrevious", "vsBest"):
        c = o[name]
        if c:
            text += "; vs %s %s %+.1f points [%+.1f, %+.1f], p = %.2g" % (
                "previous" if name == "vsPrevious" else "best", c["baselineCheckpointId"], 100 * c["difference"],
                100 * c["ciLow"], 100 * c["ciHigh"], c["pValue"])
    for a in verdict["alerts"]:
        text += "; ALERT %s" % a["message"]
    return text


def _rate(rate, low, high):
    return "n/a" if rate is None else "%.3f [%.3f, %.3f]" % (rate, low, high)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    scorer_args.add_arguments(ap)
    ap.add_argument("--run-id", default="webagent-%d" % int(time.time()))
    ap.add_argument("--out", required=True, help="directory for checkpoints, best.npz and summary.json")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--checkpoint-every", type=int, default=50)
    ap.add_argument("--episodes", type=int, default=30, help="benchmark episodes")
    ap.add_argument("--lr", type=float, default=0.3)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--bad-data-from", type=int, default=0, help="simulate a data bug from this step on (0: never)")
    ap.add_argument("--wait-timeout", type=float, default=120.0, help="seconds the scorer gets per checkpoint")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    world = World(args.seed, noise=0.9)
    benchmark = world.episodes(args.episodes, args.seed + 1000, "ep")
    train = [s for e in world.episodes(400, args.seed + 2000, "tr") for s in e.steps]
    agent = Agent(args.seed + 1)
    rng = np.random.default_rng(args.seed + 3)
    history = []
    best = None
    try:
        ev = scorer_args.evaluator(args, "webagent-numpy")
    except MmgrError as e:
        LOG.error("cannot reach the scorer: %s", e)
        return 2
    with ev:
        ev.publish_benchmark(benchmark_items(benchmark))
        LOG.info("published %d Mind2Web episodes as run %s's benchmark", len(benchmark), args.run_id)
        for step in range(0, args.steps + 1):
            if step > 0:
                batch = [train[i] for i in rng.integers(0, len(train), args.batch)]
                if args.bad_data_from and step > args.bad_data_from:
                    batch = [world.with_swapped_goals(s, SWAPS) for s in batch]
                agent.train_step(batch, args.lr)
            if step % args.checkpoint_every:
                continue
            ckpt = "ckpt-%d" % step
            path = out / ("%s.npz" % ckpt)
            np.savez(path, **agent.state())
            for e in benchmark:
                ev.submit(ckpt, step, "mind2web", e.episode_id, inputs={"uiActions": agent.predict(e)})
            ev.checkpoint_done(ckpt)
            verdict = ev.wait(ckpt, timeout=args.wait_timeout)
            LOG.info("%s %s", ckpt, describe(verdict))
            rate = verdict["overall"]["primaryRate"]
            history.append({"checkpointId": ckpt, "trainingStep": step, "status": verdict["status"], "primaryRate": rate,
                            "localEstimate": step_success_rate(agent, benchmark), "alerts": len(verdict["alerts"])})
            # the scorer's verdict decides, not the local estimate: the scorer is what the team looks at
            if verdict["status"] == "complete" and rate is not None and (best is None or rate > best["primaryRate"]):
                best = history[-1]
                shutil.copyfile(path, out / "best.npz")
                LOG.info("%s is the best so far; kept as best.npz", ckpt)
    summary = {"runId": args.run_id, "best": best and best["checkpointId"], "bestStep": best and best["trainingStep"],
               "bestRate": best and best["primaryRate"], "checkpoints": history,
               "seconds": round(time.monotonic() - t0, 1)}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    LOG.info("best checkpoint by the scorer: %s (step success %.3f); %d checkpoints in %.1f s", summary["best"],
             summary["bestRate"] or 0.0, len(history), summary["seconds"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
