#!/usr/bin/env bash
# bin/mmgr eval maze --batch (JVM start included) against bench/maze/maze_eval.py, the same rules in
# NumPy/OpenCV, on the same corpora, run alternately (Java, Python, Java, Python, ...) so both see the
# same machine; prints wall times, their medians and ratio, the load average around each run, and
# checks that both read every case the same way and as its known verdict.
#
#   bench/maze/compare.sh [RUNS]        (default 3 runs of each per corpus)
#   MAZE_THREADS=1 bench/maze/compare.sh  (Java on one worker; by default it scores one case per
#                                          core, while the Python script scores one case at a time,
#                                          with whatever threads OpenCV and FFmpeg use inside a call)
#
# Needs the packaged application (mvn -q -B -DskipTests package) and Debian's python3-opencv and
# python3-numpy. Corpora go to target/maze-bench (480 and 120 still answers, 24 videos), generated
# once by bin/mmgr bench generate maze --answers.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
runs="${1:-3}"
out="$home/target/maze-bench"
py=/usr/bin/python3
mkdir -p "$out"

corpus() { # name images videos
  if [[ ! -f "$out/$1/cases.jsonl" ]]; then
    "$home/bin/mmgr" bench generate maze --out "$out/$1" --answers "$2" --video-answers "$3" --seed 21 >&2
  fi
}
corpus img480 480 0
corpus img120 120 0
corpus vid24 0 24

now() { date +%s%N; }
load() { cut -d' ' -f1 /proc/loadavg; }

for name in img480 img120 vid24; do
  cases="$out/$name/cases.jsonl"
  : > "$out/$name.times"
  for ((i = 1; i <= runs; i++)); do
    for impl in java python; do
      before=$(load)
      t0=$(now)
      if [[ $impl == java ]]; then
        "$home/bin/mmgr" eval maze --batch "$cases" ${MAZE_THREADS:+--threads "$MAZE_THREADS"} \
          > "$out/$name.$impl.jsonl" || true
      else
        "$py" "$home/bench/maze/maze_eval.py" "$cases" > "$out/$name.$impl.jsonl" || true
      fi
      t1=$(now)
      echo "$impl $(( (t1 - t0) / 1000000 )) $before $(load)" >> "$out/$name.times"
    done
  done
  "$py" - "$name" "$cases" "$out/$name.java.jsonl" "$out/$name.python.jsonl" "$out/$name.times" <<'EOF'
import json, os, statistics, sys
name, cases, java, python, times = sys.argv[1:]
cases = [json.loads(l) for l in open(cases)]
j = [json.loads(l) for l in open(java)]
p = [json.loads(l) for l in open(python)]
assert len(j) == len(p) == len(cases), "both must answer every case"
same_verdict = sum(1 for a, b in zip(j, p) if a.get("overall") == b.get("overall"))
as_known = sum(1 for a, c in zip(j, cases) if a.get("overall") == c["expected"])
same_metrics = sum(1 for a, b in zip(j, p)
                   if all(not isinstance(a[k], float) or (isinstance(b.get(k), float) and abs(a[k] - b[k]) <= 1e-6 * max(1, abs(a[k])))
                          for k in a))
rows = [l.split() for l in open(times)]
t = {k: [int(r[1]) / 1000.0 for r in rows if r[0] == k] for k in ("java", "python")}
loads = [float(x) for r in rows for x in r[2:]]
mj, mp = statistics.median(t["java"]), statistics.median(t["python"])
threads = os.environ.get("MAZE_THREADS") or "one per core"
print(f"{name}: {len(cases)} cases; java ({threads} threads) {', '.join('%.2f' % x for x in t['java'])} s (median {mj:.2f}); "
      f"python {', '.join('%.2f' % x for x in t['python'])} s (median {mp:.2f}); ratio {mp / mj:.1f}x; "
      f"load average {min(loads):.2f}-{max(loads):.2f}")
print(f"  verdicts java = python {same_verdict}/{len(cases)}, java = known {as_known}/{len(cases)}, "
      f"all metrics equal {same_metrics}/{len(cases)}")
EOF
done
