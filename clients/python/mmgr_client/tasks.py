"""The tasks the scorer knows and the modalities each accepts (``tasks.json``, generated from the scorer's
task catalog; ``PythonClientContractTest`` fails when they drift), and how a generation's modality is
inferred from its task and its output."""
from __future__ import annotations

import difflib
import json
import pathlib
from typing import Any, Dict, List, Mapping, Optional

from .errors import ModalityUnknown, UnknownTask

_FILE = pathlib.Path(__file__).resolve().parent / "tasks.json"
# what each input field of GenerationInputs makes a generation
_INPUT_MODALITIES = (("uiActions", "ui"), ("trials", "robot"), ("trajectory2d", "trajectory"),
                     ("trajectory3d", "trajectory"), ("text", "text"))


def catalog() -> Dict[str, Dict[str, Any]]:
    with open(_FILE, encoding="utf-8") as f:
        return json.load(f)["tasks"]


def check(task: str, known: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
    """The task's entry; UnknownTask, with the nearest names, when the scorer does not know it."""
    known = catalog() if known is None else known
    if task in known:
        return known[task]
    near = difflib.get_close_matches(str(task), list(known), n=3)
    raise UnknownTask("unknown task %r%s; the scorer knows %s" % (
        task, " (did you mean %s?)" % " or ".join(repr(n) for n in near) if near else "", ", ".join(sorted(known))))


def infer_modality(task: str, accepted: List[str], output_kind: Optional[str], inputs: Optional[Mapping[str, Any]]) -> str:
    """The modality of a generation: the only one its task accepts, else what its output or inputs are."""
    if len(accepted) == 1:
        return accepted[0]
    candidates = []
    if output_kind in ("image", "video"):
        candidates.append(output_kind)
    for field, modality in _INPUT_MODALITIES:
        if inputs and inputs.get(field) is not None:
            candidates.append(modality)
    for c in candidates:
        if c in accepted:
            return c
    raise ModalityUnknown("cannot tell the modality of this %s generation (the task accepts %s; the output is %s): "
                      "give modality=" % (task, ", ".join(accepted), output_kind or "none"))
