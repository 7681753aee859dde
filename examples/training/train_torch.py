#!/usr/bin/env python3
"""A PyTorch training run that acts on the scorer's verdicts as they arrive, without pausing to wait for them.

A small PyTorch web agent learns Mind2Web-style form-filling steps (the episodes of webagent.py). Every
--checkpoint-every steps it saves a checkpoint, submits the agent's steps on every benchmark episode,
marks the checkpoint done and trains on. After each step it polls for verdicts that have arrived
(Evaluator.poll, which never waits): each one is logged, the checkpoint the scorer ranks best by its
primary (the step success rate, with its interval) is kept as best.pt, and once --patience checkpoints in
a row came without a significant improvement by the scorer's own comparison (Checkpoints.should_stop) it
stops training. It then waits for the verdicts still out (a checkpoint submitted after the one that
stopped it may yet be the best) and writes summary.json: the best checkpoint, why it stopped, and when
each verdict arrived relative to its checkpoint. --no-scoring trains the same steps without a scorer,
for the throughput beside it.

    examples/training/train_torch.py --out /tmp/torch-agent          # beside bin/mmgr run
    examples/training/train_torch.py --bootstrap-servers kafka:9092 --schema-registry-url http://registry:8081 \\
        --out /tmp/torch-agent --patience 3
"""
import argparse
import json
import logging
import pathlib
import shutil
import sys
import time

import numpy as np
import torch
from torch import nn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "clients" / "python"))

from mmgr_client import Evaluator, MmgrError  # noqa: E402
import scorer_args  # noqa: E402
from train_mind2web import benchmark_items, describe  # noqa: E402
from webagent import DIM, OPS, World, step_success_rate  # noqa: E402

LOG = logging.getLogger("train")


class TorchAgent(nn.Module):
    """Two towers score the screen's elements against the sub-goal; heads on the chosen element pick the
    operation and, against the request's slots, the value to enter."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.goal = nn.Sequential(nn.Linear(DIM, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.element = nn.Sequential(nn.Linear(DIM, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.op = nn.Linear(DIM, len(OPS))
        self.slot_query = nn.Linear(DIM, hidden, bias=False)
        self.slot_key = nn.Linear(DIM, hidden, bias=False)

    def elements(self, goal, elements):
        """Logits over the screen's elements (N x C)."""
        return torch.einsum("nh,nch->nc", self.goal(goal), self.element(elements))

    def heads(self, chosen, slot_keys):
        """Logits over operations (N x 3) and slots (N x S) for the chosen elements (N x DIM)."""
        return self.op(chosen), torch.einsum("nh,nsh->ns", self.slot_query(chosen), self.slot_key(slot_keys))


class Steps:
    """Episode steps as tensors, in one batch."""

    def __init__(self, steps) -> None:
        self.goal = torch.from_numpy(np.stack([s.goal for s in steps])).float()
        self.elements = torch.from_numpy(np.stack([s.elements for s in steps])).float()
        self.gold = torch.tensor([s.gold for s in steps])
        self.op = torch.tensor([s.op for s in steps])
        self.slot_keys = torch.from_numpy(np.stack([s.slot_keys for s in steps])).float()
        self.slot = torch.tensor([-100 if s.slot is None else s.slot for s in steps])  # CLICK steps take no value
        self.steps = steps

    def batch(self, index):
        return self.goal[index], self.elements[index], self.gold[index], self.op[index], self.slot_keys[index], self.slot[index]


class Predictor:
    """The model's steps on the benchmark as UiAction dicts, as webagent.Agent.predict gives them."""

    def __init__(self, model: TorchAgent, episodes) -> None:
        self.model = model
        self.data = Steps([s for e in episodes for s in e.steps])
        self._cache = None

    def run(self) -> None:
        d = self.data
        with torch.no_grad():
            element = self.model.elements(d.goal, d.elements).argmax(1)
            op_logits, slot_logits = self.model.heads(d.elements[torch.arange(len(d.steps)), element], d.slot_keys)
        self._cache = {id(s): (int(e), int(o), int(v)) for s, e, o, v in
                       zip(d.steps, element, op_logits.argmax(1), slot_logits.argmax(1))}

    def predict(self, episode):
        out = []
        for s in episode.steps:
            element, op, slot = self._cache[id(s)]
            out.append({"element": s.element_ids[element], "op": OPS[op],
                        "value": None if OPS[op] == "CLICK" else s.slot_values[slot]})
        return out


def train_step(model, optimizer, data: Steps, generator, batch: int) -> float:
    goal, elements, gold, op, slot_keys, slot = data.batch(torch.randint(len(data.steps), (batch,), generator=generator))
    # the heads learn on the gold element (teacher forcing)
    op_logits, slot_logits = model.heads(elements[torch.arange(batch), gold], slot_keys)
    element_logits = model.elements(goal, elements)
    loss = (nn.functional.cross_entropy(element_logits, gold) + nn.functional.cross_entropy(op_logits, op)
            + nn.functional.cross_entropy(slot_logits, slot, ignore_index=-100))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return float(loss)


class Run:
    """What the run knows of its checkpoints: when each was submitted, when its verdict came, the best one."""

    def __init__(self, out: pathlib.Path, t0: float) -> None:
        self.out = out
        self.t0 = t0
        self.step = 0
        self.polls = 0
        self.timeline = {}
        self.best = None

    def poll(self, ev: Evaluator) -> None:
        """Takes the verdicts that came meanwhile (they go to on_verdict); never waits."""
        self.polls += 1
        ev.poll()

    def submitted(self, ckpt: str, step: int, local: float) -> None:
        self.timeline[ckpt] = {"checkpointId": ckpt, "trainingStep": step, "localEstimate": local,
                               "submittedAt": round(time.monotonic() - self.t0, 3)}

    def on_verdict(self, ev: Evaluator, verdict) -> None:
        """The Evaluator's callback: runs inside poll(), on the training thread, between two steps."""
        ckpt = verdict["record"]["checkpointId"]
        entry = self.timeline[ckpt]
        o = verdict["overall"]
        entry.update({"verdictAt": round(time.monotonic() - self.t0, 3), "stepAtVerdict": self.step, "poll": self.polls,
                      "status": verdict["status"], "primaryRate": o["primaryRate"], "primaryCiLow": o["primaryCiLow"],
                      "primaryCiHigh": o["primaryCiHigh"], "vsBest": o["vsBest"], "vsPrevious": o["vsPrevious"],
                      "alerts": len(verdict["alerts"])})
        LOG.info("%s %s (arrived at step %d, %.1f s after its submission)", ckpt, describe(verdict), self.step,
                 entry["verdictAt"] - entry["submittedAt"])
        best = ev.checkpoints.best()
        if best is not None and (self.best is None or best["checkpointId"] != self.best["checkpointId"]):
            self.best = best
            shutil.copyfile(self.out / ("%s.pt" % best["checkpointId"]), self.out / "best.pt")
            LOG.info("%s is the best so far (step success %.3f [%.3f, %.3f]); kept as best.pt", best["checkpointId"],
                     best["primaryRate"], best["primaryCiLow"], best["primaryCiHigh"])


def pause_for_verdicts(ev: Evaluator, run: Run, at_most: int, timeout: float) -> float:
    """Polls until no more than ``at_most`` checkpoints await their verdict (or the timeout); the seconds it took."""
    t = time.monotonic()
    while len(ev.pending()) > at_most and time.monotonic() - t < timeout:
        run.poll(ev)
        time.sleep(0.05)
    return time.monotonic() - t


def stop_now(ev: Evaluator, run: Run, patience: int):
    """Why the run stops here (the scorer's verdicts so far show ``patience`` checkpoints without a significant
    gain), or None."""
    if not ev.checkpoints.should_stop(patience):
        return None
    since = ev.checkpoints.since_improvement()
    LOG.info("stopping at step %d: %d checkpoints without a significant improvement (%s)", run.step, len(since),
             ", ".join(since))
    return {"trainingStep": run.step, "atSeconds": round(time.monotonic() - run.t0, 3), "poll": run.polls,
            "sinceImprovement": since}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    scorer_args.add_arguments(ap)
    ap.add_argument("--run-id", default="torch-%d" % int(time.time()))
    ap.add_argument("--out", required=True, help="directory for checkpoints, best.pt and summary.json")
    ap.add_argument("--steps", type=int, default=3000, help="the most training steps, if it does not stop early")
    ap.add_argument("--checkpoint-every", type=int, default=50)
    ap.add_argument("--patience", type=int, default=3,
                    help="stop after this many checkpoints in a row without a significant improvement")
    ap.add_argument("--episodes", type=int, default=30, help="benchmark episodes")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--max-in-flight", type=int, default=4,
                    help="checkpoints out for scoring at most: beyond, training pauses for the oldest verdict "
                         "(a scorer that falls behind is not buried)")
    ap.add_argument("--wait-timeout", type=float, default=120.0,
                    help="seconds the scorer gets per checkpoint, and the wait for the last verdicts")
    ap.add_argument("--no-scoring", action="store_true", help="train --steps steps without a scorer (throughput)")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # a small model: one core is enough, and leaves the other to the scorer

    world = World(args.seed, noise=0.9)
    benchmark = world.episodes(args.episodes, args.seed + 1000, "ep")
    train = Steps([s for e in world.episodes(400, args.seed + 2000, "tr") for s in e.steps])
    model = TorchAgent(args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    generator = torch.Generator().manual_seed(args.seed + 3)
    predictor = Predictor(model, benchmark)
    ev = None
    if not args.no_scoring:
        try:
            ev = scorer_args.evaluator(args, "webagent-torch")
        except MmgrError as e:
            LOG.error("cannot reach the scorer: %s", e)
            return 2
        ev.publish_benchmark(benchmark_items(benchmark))
        LOG.info("published %d Mind2Web episodes as run %s's benchmark", len(benchmark), args.run_id)
    t0 = time.monotonic()
    run = Run(out, t0)
    if ev is not None:
        ev.on_verdict(lambda verdict: run.on_verdict(ev, verdict))
    stopped = None
    train_seconds = 0.0
    paused = 0.0
    while run.step <= args.steps:
        if run.step % args.checkpoint_every == 0:
            if ev is not None and len(ev.pending()) >= args.max_in_flight:
                paused += pause_for_verdicts(ev, run, args.max_in_flight - 1, args.wait_timeout)
                stopped = stop_now(ev, run, args.patience)  # on a verdict that came during the pause
                if stopped:
                    break
            ckpt = "ckpt-%d" % run.step
            torch.save(model.state_dict(), out / ("%s.pt" % ckpt))
            predictor.run()
            run.submitted(ckpt, run.step, step_success_rate(predictor, benchmark))
            if ev is not None:
                for e in benchmark:
                    ev.submit(ckpt, run.step, "mind2web", e.episode_id, inputs={"uiActions": predictor.predict(e)})
                ev.checkpoint_done(ckpt, timeout=args.wait_timeout)
        if run.step == args.steps:
            break
        t = time.monotonic()
        train_step(model, optimizer, train, generator, args.batch)
        train_seconds += time.monotonic() - t
        run.step += 1
        if ev is not None:
            run.poll(ev)
            stopped = stop_now(ev, run, args.patience)
            if stopped:
                break
    loop_seconds = time.monotonic() - t0
    if ev is not None:
        # checkpoints submitted after the one that stopped the run may still be the best: their verdicts decide
        pause_for_verdicts(ev, run, 0, args.wait_timeout)
        ev.close()
    best = run.best
    summary = {"runId": args.run_id, "steps": run.step, "patience": args.patience,
               "best": best and {k: best[k] for k in ("checkpointId", "trainingStep", "primaryRate", "primaryCiLow",
                                                      "primaryCiHigh")},
               "stopped": stopped, "unanswered": ev.pending() if ev else [],
               "pausedSeconds": round(paused, 2), "trainingStepsPerSecond": round(run.step / train_seconds, 1) if train_seconds else None,
               "loopStepsPerSecond": round(run.step / loop_seconds, 1), "loopSeconds": round(loop_seconds, 2),
               "seconds": round(time.monotonic() - t0, 2),
               "checkpoints": sorted(run.timeline.values(), key=lambda c: c["trainingStep"])}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if ev is None:
        LOG.info("trained %d steps without scoring: %.1f steps/s in the training steps, %.1f over the loop", run.step,
                 summary["trainingStepsPerSecond"], summary["loopStepsPerSecond"])
    else:
        LOG.info("best checkpoint by the scorer: %s; %d steps: %.1f steps/s in the training steps, %.1f over the loop "
                 "(%.1f s of it paused for the scorer), %.1f s in all", best and best["checkpointId"], run.step,
                 summary["trainingStepsPerSecond"], summary["loopStepsPerSecond"], paused, summary["seconds"])
    return 0 if ev is None or not summary["unanswered"] else 1


if __name__ == "__main__":
    sys.exit(main())
