#!/usr/bin/env python3
"""Cross-checks `mmgr eval visualwebbench` against VisualWebBench's own scoring code.

Needs a checkout of github.com/VisualWebBench/VisualWebBench (for utils/eval_utils.py), the `rouge`
package 1.0.1 (pip install rouge==1.0.1, or a checkout of pltrdy/rouge at tag 1.0.1 on PYTHONPATH) and
numpy; torch and torchvision are not needed (eval_utils imports them for the bbox tasks only, stubbed here).
Not part of the test suite: the machines the suite runs on have no PyPI.

    python3 interop/visualwebbench_crosscheck.py --official ../VisualWebBench [--samples 4000] [--seed 1]

Writes random predictions full of the cases that matter (empty and one-character answers, full stops,
Python-only whitespace, letters in brackets, after newlines, ...), scores them with both, and prints the
seven columns side by side; exits 1 on any difference.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import types

TASKS = ['web_caption', 'webqa', 'heading_ocr', 'element_ocr', 'element_ground', 'action_prediction', 'action_ground']
CHOICE = {'element_ground', 'action_prediction', 'action_ground'}
WORDS = ['the', 'cat', 'sat', 'on', 'mat', 'The', 'cat.', 'a', 'A', 'B', 'C', '(B)', '(A)', 'H', 'I', 'z', 'b', '.', '..',
         ' ', '\t', '\n', '\u00a0', '\u200b', '\u2007', '\u00df', 'e\u0301', '\U0001F600', ',', '!', '?', ';', ':', '"', "'",
         'Hello', 'world', 'x.y', 'D.', '1', ')', '(']


def text(rnd, most):
    out = ''
    for _ in range(rnd.randint(0, most)):
        out += rnd.choice(WORDS) + rnd.choice([' ', ' ', '', '.', '. ', '  ', '\t', '\n'])
    return out.strip() if rnd.random() < 0.2 else out


def has_sentence(s):
    return any(len(p) > 0 for p in s.split('.'))


def samples(rnd, n, failing):
    out = []
    for i in range(n):
        task = rnd.choice(TASKS)
        if task in CHOICE:
            pred = rnd.choice([text(rnd, 4), rnd.choice(WORDS), '', 'A.' + text(rnd, 3), rnd.choice('abcdefghABCDEFGHIZ')])
            answer = rnd.randint(0, 7)
        elif task == 'webqa':
            pred = text(rnd, 5) if rnd.random() < 0.9 else rnd.choice(['', '.', '...', ' '])
            answer = [text(rnd, 4) for _ in range(rnd.randint(0, 3))]
        else:
            pred = text(rnd, 10) if rnd.random() < 0.9 else rnd.choice(['', '.', '..', ' ', 'a', '\U0001F600'])
            answer = text(rnd, 10)
            while not has_sentence(answer):
                answer = text(rnd, 10)
            scored = ' ' if not pred or (task == 'element_ocr' and len(pred) == 1) else pred
            if not failing and not has_sentence(scored):
                pred = 'the cat'
        out.append({'id': str(i), 'subtask': task, 'prediction': pred, 'answer': answer})
    return out


def official(checkout, lines):
    for name in ('torch', 'torchvision', 'torchvision.ops'):
        sys.modules.setdefault(name, types.ModuleType(name))
    sys.modules['torchvision.ops'].box_iou = None
    sys.path.insert(0, checkout)
    from utils import eval_utils  # noqa: E402  (the official module)
    fns = {t: getattr(eval_utils, 'eval_' + t) for t in TASKS}
    result = {}
    for t in TASKS:
        preds = [l['prediction'] for l in lines if l['subtask'] == t]
        golds = [l['answer'] for l in lines if l['subtask'] == t]
        try:
            result[t] = fns[t](preds, golds)
        except Exception as e:  # the official code raises on some predictions: no score
            result[t] = type(e).__name__
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--official', required=True, help='checkout of VisualWebBench/VisualWebBench')
    ap.add_argument('--mmgr', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bin', 'mmgr'))
    ap.add_argument('--samples', type=int, default=4000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--with-failing', action='store_true', help='keep predictions the rouge package raises on')
    args = ap.parse_args()

    lines = samples(random.Random(args.seed), args.samples, args.with_failing)
    with tempfile.NamedTemporaryFile('w', suffix='.jsonl', delete=False, encoding='utf-8') as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + '\n')
    expected = official(args.official, lines)
    run = subprocess.run([args.mmgr, 'eval', 'visualwebbench', '--predictions', f.name], capture_output=True, text=True)
    got = json.loads(run.stdout.strip().splitlines()[-1])
    same = True
    for t in TASKS:
        e = expected[t]
        ok = e == got[t] if isinstance(e, dict) else all(v is None for v in got[t].values())
        same &= ok
        print(f"{t:18} official {e}  mmgr {got[t]}  {'same' if ok else 'DIFFERENT'}")
    print('overall', got['overall'])
    sys.exit(0 if same else 1)


if __name__ == '__main__':
    main()
