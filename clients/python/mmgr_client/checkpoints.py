"""Best checkpoint and early stopping over the scorer's verdicts, as they arrive.

Nothing here computes a statistic: the primary, its interval and the comparisons are the scorer's, as it
published them on its checkpoint-status topic (``schemas/CheckpointStatus.avsc``). This module only orders
the verdicts by training step and reads them.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional

ALL_TASKS = "*"


class Checkpoints:
    """The verdicts of one run's checkpoints, by checkpoint id (the latest answer of each).

    Fed by :meth:`mmgr_client.Evaluator.poll` and :meth:`~mmgr_client.Evaluator.wait` (``Evaluator.checkpoints``),
    or by hand with :meth:`update` (e.g. from records read elsewhere). Checkpoints marked done but not yet
    answered are :meth:`expect`-ed: :meth:`should_stop` reads the verdicts in training-step order and stops
    reading at the first unanswered one, since a later verdict says nothing yet about the run's course there.
    """

    def __init__(self) -> None:
        self._verdicts: Dict[str, Dict[str, Any]] = {}
        self._expected: Dict[str, int] = {}

    # -- feeding -----------------------------------------------------------------------------------------------

    def expect(self, checkpoint_id: str, training_step: int) -> None:
        """Notes a checkpoint marked done whose verdict is still to come."""
        self._expected[checkpoint_id] = training_step

    def update(self, verdict: Mapping[str, Any]) -> None:
        """Takes a verdict (``Evaluator.wait``'s dict); a newer answer about the same checkpoint replaces it.
        Each call is one run's: the ids are checkpoint ids."""
        record = verdict["record"]
        self._verdicts[record["checkpointId"]] = dict(verdict)
        self._expected.pop(record["checkpointId"], None)

    # -- reading -----------------------------------------------------------------------------------------------

    def verdict(self, checkpoint_id: str) -> Optional[Dict[str, Any]]:
        return self._verdicts.get(checkpoint_id)

    def pending(self) -> List[str]:
        """Checkpoints marked done whose verdict has not come, in training-step order."""
        return [c for c, _ in sorted(self._expected.items(), key=lambda kv: (kv[1], kv[0]))]

    def best(self, task: str = ALL_TASKS) -> Optional[Dict[str, Any]]:
        """The complete checkpoint with the highest primary on ``task`` (``*``: all tasks), the earliest of equals.

        :returns: ``{"checkpointId", "trainingStep", "primaryRate", "primaryCiLow", "primaryCiHigh", "verdict"}``
            (the rate with its 95% Wilson interval, as the scorer published them), or None before the first
            complete verdict. A timed-out checkpoint is never the best: its primary covers only part of the
            benchmark.
        """
        best = None
        for v in self._ordered():
            status = _task_status(v, task)
            if v["status"] != "complete" or status is None or status["primaryRate"] is None:
                continue
            if best is None or status["primaryRate"] > best["primaryRate"]:
                best = {"checkpointId": v["record"]["checkpointId"], "trainingStep": v["record"]["trainingStep"],
                        "primaryRate": status["primaryRate"], "primaryCiLow": status["primaryCiLow"],
                        "primaryCiHigh": status["primaryCiHigh"], "verdict": v}
        return best

    def since_improvement(self, task: str = ALL_TASKS, min_difference: float = 0.0) -> List[str]:
        """The checkpoints since the last one that improved significantly on the best before it, in step order.

        A checkpoint improves significantly when the scorer's comparison with the best earlier checkpoint
        (``vsBest``; ``vsPrevious`` when the scorer leaves ``vsBest`` out because the best earlier one is the
        previous one) has its 95% interval of the difference above ``min_difference``. The run's first
        checkpoint (no comparison) starts the count; timed-out checkpoints are left out (a slow scorer is no
        reason to stop training). Reading stops at the first checkpoint still waiting for its verdict.
        """
        since: List[str] = []
        for v in self._ordered(until_pending=True):
            if v["status"] != "complete":
                continue
            status = _task_status(v, task)
            comparison = None if status is None else (status["vsBest"] or status["vsPrevious"])
            if comparison is None or comparison["ciLow"] > min_difference:
                since = []
            else:
                since.append(v["record"]["checkpointId"])
        return since

    def should_stop(self, patience: int, task: str = ALL_TASKS, min_difference: float = 0.0) -> bool:
        """True once ``patience`` checkpoints in a row came without a significant improvement (see
        :meth:`since_improvement`), as Hugging Face's ``EarlyStoppingCallback(early_stopping_patience=...)``
        and Lightning's ``EarlyStopping(patience=...)`` count them, but by the scorer's comparison."""
        if patience < 1:
            raise ValueError("patience must be at least 1, got %r" % patience)
        return len(self.since_improvement(task, min_difference)) >= patience

    def _ordered(self, until_pending: bool = False) -> Iterable[Dict[str, Any]]:
        # a checkpoint marked done again waits for the answer to its new marker
        entries = [(v["record"]["trainingStep"], c, v) for c, v in self._verdicts.items()
                   if not (until_pending and c in self._expected)]
        if until_pending:
            entries += [(step, c, None) for c, step in self._expected.items()]
        for _, _, v in sorted(entries, key=lambda e: (e[0], e[1])):
            if v is None:
                return
            yield v


def _task_status(verdict: Mapping[str, Any], task: str) -> Optional[Mapping[str, Any]]:
    if task == ALL_TASKS:
        return verdict["overall"]
    return next((t for t in verdict["tasks"] if t["task"] == task), None)
