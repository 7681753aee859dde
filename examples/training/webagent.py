"""A tiny web agent for Mind2Web-style episodes, in plain numpy, and the episodes it learns from.

An episode is a booking task on a form: a few steps, each acting on one of the screen's elements (a text
field, a drop-down, a button) with an operation (TYPE, SELECT, CLICK) and, for TYPE and SELECT, a value
taken from the task's request. The agent sees, at each step, a noisy encoding of the sub-goal ("the
departure field"), the screen's candidate elements (noisy encodings of what each element is) and the
request's slot values (with encodings of which field each belongs to). It learns three bilinear heads
by gradient descent on cross-entropy: which element, which operation, which slot's value. Untrained it
picks at random; trained, its steps are mostly right, which is what the scorer measures (Mind2Web's
element accuracy, operation F1 and step success rate).
"""
from __future__ import annotations

import dataclasses
from typing import Dict, List, Optional, Tuple

import numpy as np

# element kinds: (name, operation, slot it takes a value from or None)
KINDS = [("from-city", "TYPE", "from"), ("to-city", "TYPE", "to"), ("date", "SELECT", "date"),
         ("passengers", "SELECT", "passengers"), ("cabin", "SELECT", "cabin"), ("search", "CLICK", None),
         ("promo", "TYPE", "promo"), ("menu", "CLICK", None), ("sign-in", "CLICK", None), ("filter", "CLICK", None)]
OPS = ["CLICK", "TYPE", "SELECT"]
SLOTS = ["from", "to", "date", "passengers", "cabin", "promo"]
VALUES = {"from": ["new york", "boston", "paris", "tokyo", "lima"], "to": ["london", "rome", "oslo", "seoul", "quito"],
          "date": ["may 3", "june 14", "july 1", "aug 20"], "passengers": ["1 adult", "2 adults", "3 adults"],
          "cabin": ["economy", "business", "first"], "promo": ["spring24", "none"]}
DIM = 24
CANDIDATES = 6


@dataclasses.dataclass
class Step:
    kind: int                   # the element kind the step acts on (index into KINDS)
    goal: np.ndarray            # sub-goal encoding (DIM)
    elements: np.ndarray        # candidates (CANDIDATES x DIM)
    element_ids: List[str]
    gold: int                   # index of the gold element
    op: int                     # gold operation
    slot_keys: np.ndarray       # (len(SLOTS) x DIM): which field each slot belongs to
    slot_values: List[str]
    slot: Optional[int]         # gold slot, None for CLICK


@dataclasses.dataclass
class Episode:
    episode_id: str
    steps: List[Step]

    def gold_steps(self) -> List[dict]:
        """The episode's gold steps as a Mind2Web benchmark item has them (UiAction field names)."""
        out = []
        for i, s in enumerate(self.steps):
            value = s.slot_values[s.slot] if s.slot is not None else None
            out.append({"element": s.element_ids[s.gold], "bbox": [100.0 * s.gold, 40.0 * i, 100.0 * s.gold + 80.0, 40.0 * i + 30.0],
                        "op": OPS[s.op], "value": value})
        return out


class World:
    """Fixed encodings of kinds and slots (what the agent must learn to match), and episode generation."""

    def __init__(self, seed: int, noise: float = 0.35) -> None:
        rng = np.random.default_rng(seed)
        self.goal_code = rng.normal(size=(len(KINDS), DIM)) / np.sqrt(DIM)
        self.element_code = rng.normal(size=(len(KINDS), DIM)) / np.sqrt(DIM)
        self.slot_code = rng.normal(size=(len(SLOTS), DIM)) / np.sqrt(DIM)
        self.noise = noise

    def episode(self, rng: np.random.Generator, episode_id: str) -> Episode:
        length = int(rng.integers(3, 6))
        plan = rng.choice(len(KINDS), size=length, replace=False)
        request = {slot: str(rng.choice(VALUES[slot])) for slot in SLOTS}
        steps = []
        for i, kind in enumerate(plan):
            others = rng.choice([k for k in range(len(KINDS)) if k != kind], size=CANDIDATES - 1, replace=False)
            kinds = np.concatenate([[kind], others])
            rng.shuffle(kinds)
            gold = int(np.where(kinds == kind)[0][0])
            n = self.noise / np.sqrt(DIM)
            elements = self.element_code[kinds] + rng.normal(scale=n, size=(CANDIDATES, DIM))
            ids = ["%s-s%d-%s" % (episode_id, i, KINDS[k][0]) for k in kinds]
            slot_order = rng.permutation(len(SLOTS))
            slot_keys = self.slot_code[slot_order] + rng.normal(scale=n, size=(len(SLOTS), DIM))
            name, op, slot = KINDS[kind]
            gold_slot = None if slot is None else int(np.where(slot_order == SLOTS.index(slot))[0][0])
            steps.append(Step(kind=int(kind), goal=self.goal_code[kind] + rng.normal(scale=n, size=DIM), elements=elements,
                              element_ids=ids,
                              gold=gold, op=OPS.index(op), slot_keys=slot_keys,
                              slot_values=[request[SLOTS[j]] for j in slot_order], slot=gold_slot))
        return Episode(episode_id, steps)

    def with_swapped_goals(self, s: Step, swaps: Dict[int, int]) -> Step:
        """The step as a buggy data loader serves it: the sub-goal of another kind paired with this step's screen."""
        other = swaps.get(s.kind, s.kind)
        return dataclasses.replace(s, goal=s.goal - self.goal_code[s.kind] + self.goal_code[other])

    def episodes(self, count: int, seed: int, prefix: str) -> List[Episode]:
        rng = np.random.default_rng(seed)
        return [self.episode(rng, "%s%03d" % (prefix, i)) for i in range(count)]


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max()
    e = np.exp(z)
    return e / e.sum()


class Agent:
    """Three bilinear heads: element = argmax goal.W.element, op = argmax element.O, slot = argmax element.P.slot."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.W = rng.normal(scale=0.1, size=(DIM, DIM))
        self.O = rng.normal(scale=0.1, size=(DIM, len(OPS)))
        self.P = rng.normal(scale=0.1, size=(DIM, DIM))

    def state(self) -> Dict[str, np.ndarray]:
        return {"W": self.W.copy(), "O": self.O.copy(), "P": self.P.copy()}

    def load(self, state: Dict[str, np.ndarray]) -> None:
        self.W, self.O, self.P = state["W"].copy(), state["O"].copy(), state["P"].copy()

    def act(self, s: Step) -> Tuple[int, int, int]:
        element = int(np.argmax(s.elements @ (self.W.T @ s.goal)))
        chosen = s.elements[element]
        op = int(np.argmax(chosen @ self.O))
        slot = int(np.argmax(s.slot_keys @ (self.P.T @ chosen)))
        return element, op, slot

    def predict(self, episode: Episode) -> List[dict]:
        """The agent's steps as UiAction dicts (what GenerationInputs.uiActions carries)."""
        out = []
        for s in episode.steps:
            element, op, slot = self.act(s)
            out.append({"element": s.element_ids[element], "op": OPS[op],
                        "value": None if OPS[op] == "CLICK" else s.slot_values[slot]})
        return out

    def train_step(self, batch: List[Step], lr: float) -> float:
        """One gradient step of the three heads' cross-entropy (teacher forcing on the gold element)."""
        gW, gO, gP = np.zeros_like(self.W), np.zeros_like(self.O), np.zeros_like(self.P)
        loss = 0.0
        for s in batch:
            v = self.W.T @ s.goal
            p = _softmax(s.elements @ v)
            loss -= np.log(p[s.gold] + 1e-12)
            d = p.copy()
            d[s.gold] -= 1.0
            gW += np.outer(s.goal, s.elements.T @ d)
            chosen = s.elements[s.gold]
            q = _softmax(chosen @ self.O)
            loss -= np.log(q[s.op] + 1e-12)
            dq = q.copy()
            dq[s.op] -= 1.0
            gO += np.outer(chosen, dq)
            if s.slot is not None:
                r = _softmax(s.slot_keys @ (self.P.T @ chosen))
                loss -= np.log(r[s.slot] + 1e-12)
                dr = r.copy()
                dr[s.slot] -= 1.0
                gP += np.outer(chosen, s.slot_keys.T @ dr)
        n = len(batch)
        self.W -= lr * gW / n
        self.O -= lr * gO / n
        self.P -= lr * gP / n
        return loss / n


def step_success_rate(agent: Agent, episodes: List[Episode]) -> float:
    """What the scorer will report, computed locally only for the log: mean over episodes of their step success."""
    rates = []
    for e in episodes:
        ok = 0
        for s, p in zip(e.steps, agent.predict(e)):
            gold_value = s.slot_values[s.slot] if s.slot is not None else None
            ok += p["element"] == s.element_ids[s.gold] and p["op"] == OPS[s.op] and p["value"] == gold_value
        rates.append(ok / len(e.steps))
    return float(np.mean(rates))
