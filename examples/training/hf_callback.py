"""Evaluate every checkpoint a Hugging Face Trainer saves with mmgr-stream (on_save -> submit + wait).

    from mmgr_client import Evaluator
    from hf_callback import MmgrEvalCallback

    evaluator = Evaluator("kafka:9092", "http://registry:8081", run_id="sft-7", model="my-vlm",
                          artifact_dir="/shared/artifacts")
    evaluator.publish_benchmark(items)                       # once, before training starts

    def generate(model, step):
        # the model's outputs on the benchmark: one dict of Evaluator.submit's arguments per sample
        for item in items:
            yield {"task": item["task"], "sample_id": item["sampleId"], "output": render(model, item)}

    trainer = Trainer(..., callbacks=[MmgrEvalCallback(evaluator, generate, stop_on_alert=True)])

The scorer's verdict on each checkpoint goes into the trainer's log history (``mmgr/status``,
``mmgr/primary``, ``mmgr/primary_ci_low`` and ``_high``, ``mmgr/alerts``), and the checkpoint the scorer
ranks best becomes ``state.best_model_checkpoint``, which the Trainer keeps when it rotates checkpoints
(``save_total_limit``) and loads at the end with ``load_best_model_at_end``. Not run by the test suite
(transformers is not a Debian package); train_mind2web.py is the same loop without a Trainer.
"""
import logging
import os
from typing import Any, Callable, Dict, Iterable, Optional

from transformers import TrainerCallback

LOG = logging.getLogger("mmgr_client.hf")


class MmgrEvalCallback(TrainerCallback):
    """On every save: generate the benchmark outputs, submit them, mark the checkpoint done and wait for the verdict.

    :param evaluator: an ``mmgr_client.Evaluator`` for the run
    :param generate: ``generate(model, step)`` -> iterable of dicts with ``Evaluator.submit``'s arguments
        (``task``, ``sample_id``, optionally ``seed``, ``output``, ``inputs``, ``modality``)
    :param wait_timeout: seconds the scorer gets per checkpoint before it answers timed_out
    :param stop_on_alert: stop training when the scorer raises an alert on a checkpoint (a significant drop)
    """

    def __init__(self, evaluator: Any, generate: Callable[[Any, int], Iterable[Dict[str, Any]]],
                 wait_timeout: float = 600.0, stop_on_alert: bool = False) -> None:
        self.evaluator = evaluator
        self.generate = generate
        self.wait_timeout = wait_timeout
        self.stop_on_alert = stop_on_alert
        self.best_rate: Optional[float] = None

    def on_save(self, args, state, control, **kwargs):
        step = state.global_step
        checkpoint = "checkpoint-%d" % step  # the Trainer's own directory name (PREFIX_CHECKPOINT_DIR)
        for sample in self.generate(kwargs.get("model"), step):
            self.evaluator.submit(checkpoint, step, **sample)
        self.evaluator.checkpoint_done(checkpoint)
        verdict = self.evaluator.wait(checkpoint, timeout=self.wait_timeout)
        overall = verdict["overall"]
        state.log_history.append({"step": step, "mmgr/status": verdict["status"], "mmgr/primary": overall["primaryRate"],
                                  "mmgr/primary_ci_low": overall["primaryCiLow"],
                                  "mmgr/primary_ci_high": overall["primaryCiHigh"], "mmgr/alerts": len(verdict["alerts"])})
        LOG.info("%s: %s, primary %s, %d alerts", checkpoint, verdict["status"], overall["primaryRate"], len(verdict["alerts"]))
        rate = overall["primaryRate"]
        if verdict["status"] == "complete" and rate is not None and (self.best_rate is None or rate > self.best_rate):
            self.best_rate = rate
            state.best_metric = rate
            state.best_model_checkpoint = os.path.join(args.output_dir, checkpoint)
        if self.stop_on_alert and verdict["alerts"]:
            LOG.warning("%s: stopping on the scorer's alert: %s", checkpoint, verdict["alerts"][0]["message"])
            control.should_training_stop = True
        return control
