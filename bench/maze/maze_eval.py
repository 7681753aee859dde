#!/usr/bin/python3
"""The maze pixel pipeline of `mmgr eval maze --batch`, written again with NumPy and OpenCV.

A reference for benchmarking (bench/maze/compare.sh): the same rules as the Java evaluator
(src/families/main/java/io/mmgr/stream/tasks/maze/), step for step, vectorised the way one would write them
in NumPy/OpenCV. It reads the same JSONL cases ({id, problem, solution, rows, cols, output[, model]})
and prints one JSON object per case with the same metric names and the pixel gate's overall.

Debian: apt-get install python3-opencv python3-numpy. Run it with /usr/bin/python3.
"""
import heapq
import json
import math
import sys

import cv2
import numpy as np

BLOCK = 8
LAYOUT_IOU_MIN = 0.8
TARGET_ACHIEVEMENT_MIN = 0.95
REFLECTION_LENGTH_RATIO = 1.3
VIDEO_CROSSING_RATIO = 0.05
IMAGE_CROSSING_RATIO = 0.01
IMAGE_WALL_EROSION = 1
VIDEO_WALL_EROSION = 2
MARKER_TOLERANCE = BLOCK
BLOCK_COVERAGE = 0.5
SOLUTION_BLOCK_COVERAGE = 0.3
OFF_PATH_COST = 25.0
LOOP_MIN_AREA = BLOCK * BLOCK
WALL_BAND_MARGIN = 0.25
MARKER_FRACTION = 0.3
WALL_FRACTION = 0.5
VISIBLE_TARGET_FRACTION = 0.5
CELL_SWITCH_DISTANCE = 0.75 * BLOCK
MAX_FILLED_STEPS = 4

# palette: raw codes 0..31 are greys by value/8, then the colour classes
OTHER, WALL, START, TARGET, PATH = 0, 1, 2, 3, 4
GREY_CODES, CODE_START, CODE_TARGET, CODE_PATH, CODE_OTHER, CODES = 32, 32, 33, 34, 35, 36
DARK_VALUE, MIN_SATURATION, WALL_OF_PAPER, MIN_PAPER_CODE = 80, 90, 0.72, 12

# locator
MIN_RUN_FRACTION, RUN_GAP, MIN_SCORE, MIN_BORDER_COVERAGE = 0.25, 2, 0.02, 0.75
MAX_THICKNESS_OF_PITCH, MAX_CLUSTERS, TOP_FITS, OUTER_CANDIDATES = 0.75, 40, 5, 4

FRAME_BUDGETS = (("veo", 192), ("sora", 360), ("wan", 120))
DEFAULT_FRAME_BUDGET = 360


def jround(x):
    """Java's Math.round."""
    return int(math.floor(x + 0.5))


def build_lut():
    """RGB (5 bits a channel, classified at the bin centre) to raw code, as MazePalette.code."""
    c = (np.arange(32, dtype=np.int64) << 3) | 4
    r, g, b = np.meshgrid(c, c, c, indexing="ij")
    mx = np.maximum(r, np.maximum(g, b))
    mn = np.minimum(r, np.minimum(g, b))
    sat = np.where(mx == 0, 0, (mx - mn) * 255 // np.maximum(mx, 1))
    d = mx - mn
    dd = np.maximum(d, 1)

    def tdiv(a, q):  # Java's integer division truncates toward zero
        return np.trunc(a / q).astype(np.int64)

    h = np.where(mx == r, tdiv(60 * (g - b), dd), np.where(mx == g, 120 + tdiv(60 * (b - r), dd), 240 + tdiv(60 * (r - g), dd)))
    h = np.where(h < 0, h + 360, h)
    h = np.where(d == 0, -1, h)
    grey = (mx < DARK_VALUE) | (sat < MIN_SATURATION)
    code = np.full(r.shape, CODE_OTHER, dtype=np.uint8)
    code[(h >= 75) & (h <= 165)] = CODE_START
    code[(h >= 335) | ((h >= 0) & (h <= 25))] = CODE_TARGET
    code[(h >= 185) & (h <= 275)] = CODE_PATH
    code[grey] = (mx[grey] >> 3).astype(np.uint8)
    return code.reshape(-1)


LUT = build_lut()


def tables(paper):
    paper_value = paper * 8 + 4
    limit = jround(WALL_OF_PAPER * paper_value)
    classes = np.zeros(CODES, dtype=np.uint8)
    darkness = np.zeros(CODES, dtype=np.int64)
    for c in range(GREY_CODES):
        classes[c] = WALL if c * 8 + 4 < limit else OTHER
        darkness[c] = jround(255 * max(0.0, min(1.0, (paper_value - (c * 8 + 4)) / paper_value)))
    classes[CODE_START], classes[CODE_TARGET], classes[CODE_PATH] = START, TARGET, PATH
    return classes, darkness


TABLES = [tables(p) for p in range(GREY_CODES)]


def floor(v):
    """Floor that takes a value a rounding error below an integer as that integer."""
    return math.floor(v + 1e-9)


class Axis:
    """Wall line j covers [origin + j pitch, origin + j pitch + thickness), cell j the rest up to the next line."""

    def __init__(self, origin, pitch, thickness, cells):
        self.origin, self.pitch, self.thickness, self.cells = origin, pitch, thickness, cells

    def block_start(self, k):
        j = k // 2
        return self.origin + j * self.pitch if k % 2 == 0 else self.origin + j * self.pitch + self.thickness

    def block_length(self, k):
        return self.thickness if k % 2 == 0 else self.pitch - self.thickness

    def end(self):
        return self.origin + self.cells * self.pitch + self.thickness

    def colour(self):
        n = (2 * self.cells + 1) * BLOCK
        s = np.empty(n, dtype=np.int64)
        e = np.empty(n, dtype=np.int64)
        for i in range(n):
            k, sub = divmod(i, BLOCK)
            a, ln = self.block_start(k), self.block_length(k)
            s[i] = floor(a + sub * ln / BLOCK)
            e[i] = max(s[i] + 1, floor(a + (sub + 1) * ln / BLOCK))
        return s, e

    def walls(self):
        s, e = self.colour()
        margin = max(1.0, WALL_BAND_MARGIN * self.thickness)
        for i in range(len(s)):
            k = i // BLOCK
            if k % 2 == 0:
                s[i] = floor(self.block_start(k) - margin)
                e[i] = -floor(-(self.block_start(k) + self.thickness + margin))
        return s, e

    def wall_extent(self, s, e):
        ln = (e - s).astype(np.float64)
        even = (np.arange(len(s)) // BLOCK) % 2 == 0
        return np.where(even, np.minimum(ln, max(1.0, self.thickness)), ln)


def has_long_run(wall, axis, min_run):
    """Per column (axis 0) or row (axis 1): whether a run of wall pixels (gaps up to RUN_GAP bridged) reaches min_run."""
    w = np.pad(wall.astype(np.uint8), RUN_GAP, mode="constant")
    kernel = np.ones((RUN_GAP + 1, 1) if axis == 0 else (1, RUN_GAP + 1), np.uint8)
    closed = cv2.morphologyEx(w, cv2.MORPH_CLOSE, kernel)[RUN_GAP:-RUN_GAP, RUN_GAP:-RUN_GAP]
    # a run of length >= min_run survives an erosion by a line of min_run pixels (nothing outside counts)
    line = np.ones((min_run, 1) if axis == 0 else (1, min_run), np.uint8)
    eroded = cv2.erode(closed, line, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return eroded.any(axis=axis)


def comb_score(prefix, inner, span, t, cells):
    """Mean darkness of the interior wall lines minus that of the cells between them; inner, span and t
    broadcast (one score per element)."""
    inner, span, t = np.broadcast_arrays(np.asarray(inner, dtype=np.float64), np.asarray(span, dtype=np.float64),
                                         np.asarray(t, dtype=np.float64))
    inner, span, t = inner[..., None], span[..., None], t[..., None]
    grid = np.arange(len(prefix), dtype=np.float64)
    p = (span + t) / cells
    j = np.arange(1, cells)
    a, b = inner + j * p - t, inner + j * p
    teeth = ((np.interp(b, grid, prefix) - np.interp(a, grid, prefix)) / (b - a)).sum(axis=-1)
    j = np.arange(0, cells)
    a, b = inner + j * p, inner + j * p + p - t
    gaps = ((np.interp(b, grid, prefix) - np.interp(a, grid, prefix)) / (b - a)).sum(axis=-1)
    return teeth / (cells - 1) - gaps / cells


def steps(start, stop, step):
    out = []
    t = start
    while t <= stop:
        out.append(t)
        t += step
    return out


def fit(prefix, inner, span, cells):
    t_max = min(MAX_THICKNESS_OF_PITCH * span / (cells - MAX_THICKNESS_OF_PITCH), (span - cells) / (cells - 1.0))
    if t_max < 0.75:
        return None
    step = 0.25 if t_max < 50 else t_max / 200
    ts = steps(0.75, t_max, step)
    scores = comb_score(prefix, inner, span, np.array(ts), cells)
    k = int(np.argmax(scores))
    best, best_t = float(scores[k]), ts[k]
    best_inner, best_span, t0 = inner, span, best_t
    # the nudges of both inner edges and the thickness around the best, all scored at once
    ts = np.array(steps(max(0.75, t0 - 2 * step), min(t_max, t0 + 2 * step), step / 2))
    if len(ts):
        d = np.array((-1.0, -0.5, 0.0, 0.5, 1.0))
        di, ds, tt = np.meshgrid(d, d, ts, indexing="ij")
        scores = comb_score(prefix, inner + di, span + ds - di, tt, cells).ravel()
        better = np.flatnonzero(scores > best + 1e-9)
        if len(better):
            # the first strictly better one in loop order that beats all before it, as the loops would
            running = best
            for i in better:
                if scores[i] > running + 1e-9:
                    running = float(scores[i])
                    best, best_t = running, float(tt.ravel()[i])
                    best_inner, best_span = inner + float(di.ravel()[i]), span + float(ds.ravel()[i]) - float(di.ravel()[i])
    return best, Axis(best_inner - best_t, (best_span + best_t) / cells, best_t, cells)


def centroid(darkness, cluster):
    lo, hi = max(0, cluster[0] - 1), min(len(darkness) - 1, cluster[1] + 1)
    d = darkness[lo:hi + 1]
    total = d.sum()
    if total == 0:
        return (cluster[0] + cluster[1] + 1) / 2.0
    return float((d * (np.arange(lo, hi + 1) + 0.5)).sum() / total)


def on_outer_walls(score, axis, prefix, darkness, first, last):
    t = axis.thickness
    tol = max(1.5, 0.2 * t)
    c0 = centroid(darkness, first) if first[1] - first[0] + 1 <= t + tol else axis.origin + t / 2
    c1 = centroid(darkness, last) if last[1] - last[0] + 1 <= t + tol else axis.origin + axis.cells * axis.pitch + t / 2
    pitch = (c1 - c0) / axis.cells
    if pitch <= t:
        return score, axis
    a = Axis(c0 - t / 2, pitch, t, axis.cells)
    return float(comb_score(prefix, a.origin + t, a.cells * pitch - t, t, a.cells)), a


def fits(darkness, long_run, across, min_run, cells):
    prefix = np.concatenate(([0.0], np.cumsum(darkness / (255.0 * across))))
    clusters = []
    for i in np.flatnonzero(long_run):
        if clusters and clusters[-1][1] >= i - 2:
            clusters[-1][1] = int(i)
        else:
            clusters.append([int(i), int(i)])
    if len(clusters) > MAX_CLUSTERS:
        return []
    out = []
    k = len(clusters)
    for a in range(min(k, OUTER_CANDIDATES)):
        for b in range(max(a + 1, k - OUTER_CANDIDATES), k):
            inner = clusters[a][1] + 1
            span = clusters[b][0] - inner
            if span < 2 * cells or span < min_run // 2:
                continue
            f = fit(prefix, inner, span, cells)
            if f is not None and f[0] >= MIN_SCORE:
                t = f[1].thickness
                if any(c[1] - c[0] + 1 < 0.6 * t - 1 for c in (clusters[a], clusters[b])):
                    continue
                anchored = on_outer_walls(f[0], f[1], prefix, darkness, clusters[a], clusters[b])
                if anchored[0] >= MIN_SCORE:
                    out.append(anchored)
            else:
                t = min(clusters[a][1] - clusters[a][0], clusters[b][1] - clusters[b][0]) + 1
                if t < (span + t) / cells:
                    out.append((-1.0 + (0 if f is None else max(-0.5, f[0])), Axis(inner - t, (span + t) / cells, t, cells)))
    out.sort(key=lambda f: -f[0])
    return out[:TOP_FITS]


def borders_present(labels, g):
    h, w = labels.shape
    ax, ay = g
    clamp = lambda v, lim: max(0, min(lim, v))
    x0, x1 = clamp(math.floor(ax.origin), w), clamp(math.ceil(ax.end()), w)
    y0, y1 = clamp(math.floor(ay.origin), h), clamp(math.ceil(ay.end()), h)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return False

    def band(a, line, lim):
        s = a.origin + line * a.pitch
        return clamp(math.floor(s - 1), lim), clamp(math.ceil(s + a.thickness + 1), lim)

    wall = labels == WALL
    for (b0, b1), vertical in ((band(ax, 0, w), True), (band(ax, ax.cells, w), True),
                               (band(ay, 0, h), False), (band(ay, ay.cells, h), False)):
        region = wall[y0:y1, b0:b1].any(axis=1) if vertical else wall[b0:b1, x0:x1].any(axis=0)
        length = (y1 - y0) if vertical else (x1 - x0)
        if region.sum() / max(1, length) < MIN_BORDER_COVERAGE:
            return False
    return True


def locate(labels, col_dark, row_dark, rows, cols):
    h, w = labels.shape
    wall = labels == WALL
    min_run = math.ceil(MIN_RUN_FRACTION * min(w, h))
    xs = fits(col_dark, has_long_run(wall, 0, min_run), h, min_run, cols)
    ys = fits(row_dark, has_long_run(wall, 1, min_run), w, min_run, rows)
    combos = [(fx[0] + fy[0], (fx[1], fy[1])) for fx in xs for fy in ys]
    combos.sort(key=lambda c: -c[0])
    for _, g in combos:
        if borders_present(labels, g):
            return g
    return None


def block_counts(planes, xs, ys):
    """Per footprint cell, counts of each plane (integral images, clipped footprints) and the areas."""
    h, w = planes[0].shape
    xa = np.clip(xs[0], 0, w - 1)
    xb = np.maximum(xa + 1, np.clip(xs[1], 0, w))
    ya = np.clip(ys[0], 0, h - 1)
    yb = np.maximum(ya + 1, np.clip(ys[1], 0, h))
    out = []
    for p in planes:
        ii = cv2.integral(p)
        out.append(ii[yb][:, xb] - ii[ya][:, xb] - ii[yb][:, xa] + ii[ya][:, xa])
    return out, np.outer(yb - ya, xb - xa)


def without_small(mask, min_area):
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    keep = np.zeros(n, dtype=bool)
    keep[1:] = stats[1:, cv2.CC_STAT_AREA] >= min_area
    return keep[lab]


def largest(mask):
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    if n <= 1:
        return np.zeros_like(mask, dtype=bool)
    return lab == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


def centre_of(mask):
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return None
    return np.array([xs.mean() + 0.5, ys.mean() + 0.5])


class Canvas:
    """One image on the canonical grid (MazeCanvas)."""

    def __init__(self, rgb, rows, cols, hint=None, walls=True):
        self.rows, self.cols = rows, cols
        cw, ch = (2 * cols + 1) * BLOCK, (2 * rows + 1) * BLOCK
        key = ((rgb[:, :, 0].astype(np.int32) >> 3) << 10) | ((rgb[:, :, 1].astype(np.int32) >> 3) << 5) | (rgb[:, :, 2] >> 3)
        codes = LUT[key]
        hist = np.bincount(codes.ravel(), minlength=CODES)
        bright = hist[MIN_PAPER_CODE:GREY_CODES]
        paper = GREY_CODES - 1 if bright.max() <= 0 else MIN_PAPER_CODE + int(np.argmax(bright))
        classes, darkness = TABLES[paper]
        labels = classes[codes]
        g = hint if hint is not None and borders_present(labels, hint) else None
        if g is None:
            dark = darkness[codes]
            g = locate(labels, dark.sum(axis=0), dark.sum(axis=1), rows, cols)
        self.geometry = g
        if g is None:
            empty = np.zeros((ch, cw), dtype=bool)
            self.walls = self.start = self.target = self.path = empty
            return
        ax, ay = g
        cx, cy = ax.colour(), ay.colour()
        planes = [(labels == c).astype(np.uint8) for c in (START, TARGET, PATH)]
        (ns, nt, npath), area = block_counts(planes, cx, cy)
        marker_need = np.ceil(np.maximum(1, MARKER_FRACTION * area))
        self.start = (ns > 0) & (ns >= marker_need)
        self.target = (nt > 0) & (nt >= marker_need)
        narrow = np.minimum.outer(cy[1] - cy[0], cx[1] - cx[0])
        need = np.maximum(1.0, np.ceil(0.5 * narrow))
        self.path = without_small((npath > 0) & (npath >= need), 3)
        if not walls:  # a reference solution: its walls come from the problem image
            self.walls = np.zeros((ch, cw), dtype=bool)
            return
        wx, wy = ax.walls(), ay.walls()
        (nw,), _ = block_counts([(labels == WALL).astype(np.uint8)], wx, wy)
        need = WALL_FRACTION * np.outer(ay.wall_extent(*wy), ax.wall_extent(*wx))
        self.walls = (nw > 0) & (nw >= need)

    def found(self):
        return self.geometry is not None

    def pixels_per_canonical(self):
        return 1.0 if self.geometry is None else (self.geometry[0].pitch + self.geometry[1].pitch) / (4.0 * BLOCK)


def block_coverage(mask, lr, lc):
    """Share of each lattice block covered by a canonical mask."""
    return mask.reshape(lr, BLOCK, lc, BLOCK).sum(axis=(1, 3)) / float(BLOCK * BLOCK)


def dilate(mask, r):
    if r <= 0:
        return mask.copy()
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)).astype(bool)


def erode(mask, r):
    if r <= 0:
        return mask.copy()
    return cv2.erode(mask.astype(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8),
                     borderType=cv2.BORDER_CONSTANT, borderValue=1).astype(bool)


def dilation_for(width):
    return max(0, int(math.floor((BLOCK - width) / 2.0)))


def to_cell_width(path):
    if not path.any():
        return path
    skeleton = max(1, int(np.count_nonzero(cv2.ximgproc.thinning(path.astype(np.uint8) * 255,
                                                                   thinningType=cv2.ximgproc.THINNING_ZHANGSUEN))))
    return dilate(path, dilation_for(np.count_nonzero(path) / skeleton))


def holes(mask, min_area):
    """Enclosed 4-connected background regions of at least min_area pixels."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats((~mask).astype(np.uint8), connectivity=4)
    border = set(np.unique(np.concatenate((lab[0], lab[-1], lab[:, 0], lab[:, -1]))).tolist())
    return sum(1 for i in range(1, n) if i not in border and stats[i, cv2.CC_STAT_AREA] >= min_area)


def iou(a, b, region=None):
    if region is not None:
        a, b = a & region, b & region
    union = np.count_nonzero(a | b)
    return 1.0 if union == 0 else np.count_nonzero(a & b) / union


def match(pred, ref, region):
    if region is not None:
        pred, ref = pred & region, ref & region
    inter = np.count_nonzero(pred & ref)
    pc, rc = np.count_nonzero(pred), np.count_nonzero(ref)
    union = pc + rc - inter
    return (0.0 if union == 0 else inter / union, 0.0 if pc == 0 else inter / pc, 0.0 if rc == 0 else inter / rc)


class Lattice:
    def __init__(self, open_, rows, cols):
        self.open, self.rows, self.cols = open_, rows, cols

    def connected(self, a, b):
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            return False
        if not (0 <= a[0] < self.rows and 0 <= a[1] < self.cols and 0 <= b[0] < self.rows and 0 <= b[1] < self.cols):
            return False
        return bool(self.open[2 * a[0] + 1 + b[0] - a[0], 2 * a[1] + 1 + b[1] - a[1]])

    def neighbours(self, c):
        return [n for n in ((c[0] - 1, c[1]), (c[0] + 1, c[1]), (c[0], c[1] - 1), (c[0], c[1] + 1)) if self.connected(c, n)]

    def shortest_path(self, a, b):
        prev = {a: None}
        queue = [a]
        head = 0
        while head < len(queue):
            c = queue[head]
            head += 1
            if c == b:
                out = []
                while c is not None:
                    out.append(c)
                    c = prev[c]
                return out[::-1]
            for n in self.neighbours(c):
                if n not in prev:
                    prev[n] = c
                    queue.append(n)
        return []


class ReferenceError_(Exception):
    pass


def block_centre(c):
    return np.array([(2 * c[1] + 1.5) * BLOCK, (2 * c[0] + 1.5) * BLOCK])


def cell_at(p):
    return (jround((p[1] / BLOCK - 1.5) / 2.0), jround((p[0] / BLOCK - 1.5) / 2.0))


def wall_kind(lr, lc):
    """Per canonical pixel: 1 wall across rows (horizontal segment), 2 across columns, 3 a post; inner blocks only."""
    r = np.arange(lr)[:, None]
    c = np.arange(lc)[None, :]
    inner = (r > 0) & (c > 0) & (r < lr - 1) & (c < lc - 1)
    kind = np.where(inner, ((r % 2 == 0) * 1) | ((c % 2 == 0) * 2), 0)
    return np.kron(kind, np.ones((BLOCK, BLOCK), dtype=np.int64))


class Reference:
    """MazeReference.build from a problem and a solution canvas (no lattice, no solution path)."""

    def __init__(self, problem, solution, rows, cols):
        if not problem.found():
            raise ReferenceError_("the problem image shows no maze (no wall structure found)")
        lr, lc = 2 * rows + 1, 2 * cols + 1
        cov = block_coverage(problem.walls, lr, lc)
        r = np.arange(lr)[:, None]
        c = np.arange(lc)[None, :]
        border = (r == 0) | (c == 0) | (r == lr - 1) | (c == lc - 1)
        connector = (r % 2) != (c % 2)
        wall = border | ((r % 2 == 0) & (c % 2 == 0)) | (connector & (cov >= 0.5))
        self.lattice = Lattice(~wall, rows, cols)
        if not solution.found():
            raise ReferenceError_("the benchmark item has neither a solution path nor a readable solution image")
        self.solution = self.solution_from(solution, problem)
        for i in range(1, len(self.solution)):
            if not self.lattice.connected(self.solution[i - 1], self.solution[i]):
                raise ReferenceError_("solution steps through a wall")
        self.walls = problem.walls
        s, t = largest(problem.start), largest(problem.target)
        if not s.any() or not t.any():
            raise ReferenceError_("the problem image shows no " + ("green start" if not s.any() else "red target") + " square")
        self.start_centre, self.target_centre = centre_of(s), centre_of(t)
        self.walls_eroded_image = erode(self.walls, IMAGE_WALL_EROSION)
        self.walls_eroded_video = erode(self.walls, VIDEO_WALL_EROSION)
        ch, cw = self.walls.shape
        full = np.zeros((lr, lc), dtype=bool)
        for b in self.blocks(self.solution):
            full[b] = True
        ends = np.zeros((lr, lc), dtype=bool)
        for cell in (self.solution[0], self.solution[-1]):
            ends[2 * cell[0] + 1, 2 * cell[1] + 1] = True
        up = np.ones((BLOCK, BLOCK), dtype=bool)
        self.solution_full = np.kron(full, up).astype(bool)
        self.endpoint_cells = np.kron(ends, up).astype(bool)
        self.solution_interior = self.solution_full & ~self.endpoint_cells
        self.closed_inner = (wall_kind(lr, lc) > 0) & np.kron(wall, up).astype(bool)
        self.kind = wall_kind(lr, lc)

    @staticmethod
    def blocks(route):
        out = []
        for i, c in enumerate(route):
            out.append((2 * c[0] + 1, 2 * c[1] + 1))
            if i > 0:
                p = route[i - 1]
                out.append((2 * p[0] + 1 + c[0] - p[0], 2 * p[1] + 1 + c[1] - p[1]))
        return out

    def solution_from(self, image, problem):
        s, t = centre_of(largest(problem.start)), centre_of(largest(problem.target))
        if s is None or t is None:
            s, t = centre_of(largest(image.start)), centre_of(largest(image.target))
        if s is None or t is None:
            raise ReferenceError_("the solution image shows no " + ("green start" if s is None else "red target") + " square")
        rows, cols = self.lattice.rows, self.lattice.cols
        clamp = lambda c: (max(0, min(rows - 1, c[0])), max(0, min(cols - 1, c[1])))
        start, target = clamp(cell_at(s)), clamp(cell_at(t))
        if start == target:
            raise ReferenceError_("the solution image's start and target lie in the same cell")
        on = to_cell_width(image.path) | image.start | image.target
        lr, lc = 2 * rows + 1, 2 * cols + 1
        covered = np.minimum(1.0, block_coverage(on, lr, lc) / SOLUTION_BLOCK_COVERAGE)
        cost = 1.0 + (OFF_PATH_COST - 1.0) * (1.0 - covered)
        src = (2 * start[0] + 1, 2 * start[1] + 1)
        dst = (2 * target[0] + 1, 2 * target[1] + 1)
        dist = {src: 0.0}
        prev = {src: None}
        heap = [(0.0, src)]
        while heap:
            d, b = heapq.heappop(heap)
            if d > dist[b]:
                continue
            if b == dst:
                break
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                n = (b[0] + dr, b[1] + dc)
                if 0 <= n[0] < lr and 0 <= n[1] < lc and self.lattice.open[n]:
                    nd = d + cost[n]
                    if nd < dist.get(n, math.inf):
                        dist[n] = nd
                        prev[n] = b
                        heapq.heappush(heap, (nd, n))
        if dst not in dist:
            raise ReferenceError_("the maze has no passage from the start to the target")
        cells = []
        b = dst
        while b is not None:
            if b[0] % 2 == 1 and b[1] % 2 == 1:
                cells.append((b[0] // 2, b[1] // 2))
            b = prev[b]
        return cells[::-1]

    def crossing_pixels(self, painted, sides, eroded):
        """Painted pixels inside eroded inner walls with `sides` on both sides across the wall."""
        h, w = painted.shape
        ys = np.arange(h)
        xs = np.arange(w)
        top = np.clip((ys // BLOCK) * BLOCK - 1, 0, h - 1)
        bottom = np.clip((ys // BLOCK) * BLOCK + BLOCK, 0, h - 1)
        left = np.clip((xs // BLOCK) * BLOCK - 1, 0, w - 1)
        right = np.clip((xs // BLOCK) * BLOCK + BLOCK, 0, w - 1)
        vertical = sides[top, :] & sides[bottom, :]
        horizontal = sides[:, left] & sides[:, right]
        bridged = (((self.kind & 1) > 0) & vertical) | (((self.kind & 2) > 0) & horizontal)
        return int(np.count_nonzero(painted & eroded & self.closed_inner & bridged))


def score_image(ref, out):
    if not out.found():
        return metrics(0.0, True, None, None, True, True, 0.0, False, (0.0, 0.0, 0.0), 0.0, False, 0.0, False, None, None)
    painted = dilate(out.path | out.start | out.target, 1)
    layout = iou(out.walls, ref.walls, ~painted)
    target_at, start_at = centre_of(largest(out.target)), centre_of(largest(out.start))
    ppc = out.pixels_per_canonical()
    start_off = None if start_at is None else float(np.hypot(*(start_at - ref.start_centre)) * ppc)
    target_off = None if target_at is None else float(np.hypot(*(target_at - ref.target_centre)) * ppc)
    start_moved = moved(start_at, ref.start_centre)
    target_moved = moved(target_at, ref.target_centre)
    maze_changed = layout <= LAYOUT_IOU_MIN or target_moved
    path = out.path
    n = np.count_nonzero(path)
    crossing = 0.0 if n == 0 else ref.crossing_pixels(path, path | out.start | out.target, ref.walls_eroded_image) / n
    cell_path = to_cell_width(path)
    m = match(cell_path, ref.solution_interior, ~ref.endpoint_cells)
    lr, lc = 2 * ref.lattice.rows + 1, 2 * ref.lattice.cols + 1
    covered = block_coverage(cell_path, lr, lc) >= BLOCK_COVERAGE
    sol = ref.solution
    hit = 0
    for i, c in enumerate(sol):
        ok = covered[2 * c[0] + 1, 2 * c[1] + 1]
        if not ok and (i == 0 or i == len(sol) - 1):
            nb = sol[1] if i == 0 else sol[-2]
            ok = covered[2 * c[0] + 1 + nb[0] - c[0], 2 * c[1] + 1 + nb[1] - c[1]]
        hit += 1 if ok else 0
    achievement = hit / len(sol)
    ends = covered.copy()
    for c in (sol[0], sol[-1]):
        ends[2 * c[0] + 1, 2 * c[1] + 1] = False
    length_ratio = np.count_nonzero(ends) / (2 * len(sol) - 3)
    loop = holes(cell_path, LOOP_MIN_AREA) > 0
    excessive = loop or length_ratio > REFLECTION_LENGTH_RATIO
    return metrics(layout, maze_changed, start_off, target_off, start_moved, target_moved, crossing,
                   crossing > IMAGE_CROSSING_RATIO, m, achievement, loop, length_ratio, excessive, None, None)


def moved(found, expected):
    return found is None or math.hypot(found[0] - expected[0], found[1] - expected[1]) > MARKER_TOLERANCE


def metrics(layout, changed, start_off, target_off, start_moved, target_moved, crossing, cross_wall, m,
            achievement, loop, length_ratio, excessive, reflection, frames):
    f = lambda b: 1.0 if b else 0.0
    return {"layout_iou": float(layout), "maze_changed": f(changed), "start_offset_px": start_off,
            "target_offset_px": target_off, "start_moved": f(start_moved), "target_moved": f(target_moved),
            "crossing_ratio": float(crossing), "cross_wall": f(cross_wall), "path_iou": float(m[0]),
            "path_precision": float(m[1]), "path_recall": float(m[2]), "target_achievement": float(achievement),
            "path_has_loop": f(loop), "path_length_ratio": float(length_ratio), "excessive_reflection": f(excessive),
            "action_reflection": None if reflection is None else f(reflection),
            "frames_analyzed": None if frames is None else float(frames)}


class VideoScorer:
    """MazeVideoScorer: per-frame layout, target sightings, the agent tracked cell by cell."""

    def __init__(self, ref):
        self.ref = ref
        self.trail = np.zeros_like(ref.walls)
        self.route = []
        self.frames = 0
        self.min_layout = 1.0
        self.agent_pixels = 0
        self.crossing = 0
        self.side_sum = 0.0
        self.agent_frames = 0
        self.start_offset = None
        self.first_start = None
        self.sightings = []
        self.current = None
        self.last_centre = None
        self.hint = None

    def accept(self, rgb):
        ref = self.ref
        frame = Canvas(rgb, ref.lattice.rows, ref.lattice.cols, self.hint)
        if frame.found():
            self.hint = frame.geometry
        self.frames += 1
        first = self.frames == 1
        if not frame.found():
            self.min_layout = 0.0
            return
        painted = dilate(frame.path | frame.start | frame.target, 1)
        self.min_layout = min(self.min_layout, iou(frame.walls, ref.walls, ~painted))
        target = largest(frame.target)
        if target.any():
            t = centre_of(target)
            d = math.hypot(t[0] - ref.target_centre[0], t[1] - ref.target_centre[1])
            self.sightings.append((np.count_nonzero(target), d, d * frame.pixels_per_canonical()))
        agent = largest(frame.start)
        area = int(np.count_nonzero(agent))
        if area == 0:
            return
        c = centre_of(agent)
        if first:
            self.first_start = c
            self.start_offset = float(np.hypot(*(c - ref.start_centre)) * frame.pixels_per_canonical())
        self.trail |= agent
        if self.last_centre is not None and math.hypot(c[0] - self.last_centre[0], c[1] - self.last_centre[1]) <= 4 * BLOCK:
            paint_segment(self.trail, self.last_centre[0] - 0.5, self.last_centre[1] - 0.5, c[0] - 0.5, c[1] - 0.5,
                          math.sqrt(area) / 2.0)
        self.last_centre = c
        self.agent_pixels += area
        self.crossing += self.agent_in_walls(agent, c)
        self.side_sum += math.sqrt(area)
        self.agent_frames += 1
        self.track(c)

    def agent_in_walls(self, agent, centre):
        ref = self.ref
        br, bc = int(math.floor(centre[1] / BLOCK)), int(math.floor(centre[0] / BLOCK))
        lr, lc = 2 * ref.lattice.rows + 1, 2 * ref.lattice.cols + 1
        if 0 < br < lr - 1 and 0 < bc < lc - 1 and not ref.lattice.open[br, bc]:
            return int(np.count_nonzero(agent & ref.walls_eroded_video))
        return ref.crossing_pixels(agent, agent, ref.walls_eroded_video)

    def track(self, c):
        ref = self.ref
        nearest = cell_at(c)
        nearest = (max(0, min(ref.lattice.rows - 1, nearest[0])), max(0, min(ref.lattice.cols - 1, nearest[1])))
        if self.current is None:
            self.current = nearest
            self.route.append(nearest)
            return
        if nearest == self.current:
            return
        centre = block_centre(nearest)
        steps = abs(self.current[0] - nearest[0]) + abs(self.current[1] - nearest[1])
        if steps == 1 and max(abs(c[0] - centre[0]), abs(c[1] - centre[1])) > CELL_SWITCH_DISTANCE:
            return
        if steps > 1:
            between = ref.lattice.shortest_path(self.current, nearest)
            if between and len(between) - 1 <= MAX_FILLED_STEPS:
                self.route.extend(between[1:-1])
        self.route.append(nearest)
        self.current = nearest

    def finish(self):
        ref = self.ref
        crossing = 0.0 if self.agent_pixels == 0 else self.crossing / self.agent_pixels
        largest_area = max((s[0] for s in self.sightings), default=0)
        seen = largest_area > 0
        dev = max((s[1] for s in self.sightings if s[0] >= VISIBLE_TARGET_FRACTION * largest_area), default=0.0)
        off = max((s[2] for s in self.sightings if s[0] >= VISIBLE_TARGET_FRACTION * largest_area), default=0.0)
        target_moved = not seen or dev > MARKER_TOLERANCE
        start_moved = moved(self.first_start, ref.start_centre)
        changed = self.min_layout <= LAYOUT_IOU_MIN or target_moved
        side = BLOCK if self.agent_frames == 0 else self.side_sum / self.agent_frames
        cell_trail = dilate(self.trail, dilation_for(side))
        m = match(cell_trail, ref.solution_full, None)
        visited = set(self.route)
        achievement = sum(1 for c in ref.solution if c in visited) / len(ref.solution)
        moves = sum(abs(self.route[i - 1][0] - self.route[i][0]) + abs(self.route[i - 1][1] - self.route[i][1])
                    for i in range(1, len(self.route)))
        length_ratio = moves / (len(ref.solution) - 1)
        loop = holes(cell_trail, LOOP_MIN_AREA) > 0
        left = set()
        back = False
        for i in range(1, len(self.route)):
            left.add(self.route[i - 1])
            if self.route[i] in left:
                back = True
                break
        return metrics(self.min_layout, changed, self.start_offset, off if seen else None, start_moved, target_moved,
                       crossing, crossing > VIDEO_CROSSING_RATIO, m, achievement, loop, length_ratio,
                       loop or length_ratio > REFLECTION_LENGTH_RATIO, back, self.frames)


def paint_segment(mask, x0, y0, x1, y1, half):
    h, w = mask.shape
    n = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) * 2))
    for i in range(n + 1):
        t = i / n
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        xa, ya = max(0, jround(x - half)), max(0, jround(y - half))
        xb, yb = min(w, jround(x + half)), min(h, jround(y + half))
        if xb > xa and yb > ya:
            mask[ya:yb, xa:xb] = True


def frame_budget(model):
    m = (model or "").lower()
    for name, n in FRAME_BUDGETS:
        if name in m:
            return n
    return DEFAULT_FRAME_BUDGET


def score_video(ref, path, model):
    cap = cv2.VideoCapture(path)
    if not cap.isOpened():
        raise ValueError("not a decodable video: " + path)
    target = frame_budget(model)
    declared = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    scorer = VideoScorer(ref)
    index, picked, next_pick = 0, 0, 0
    while True:
        wanted = declared <= 0 or declared <= target or index == next_pick
        if not wanted:
            if not cap.grab():
                break
            index += 1
            continue
        ok, bgr = cap.read()
        if not ok:
            break
        scorer.accept(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))
        picked += 1
        if declared > target:
            next_pick = jround(picked * (declared - 1) / (target - 1)) if picked < target else math.inf
        index += 1
    cap.release()
    if scorer.frames == 0:
        raise ValueError("video has no decodable frames")
    return scorer.finish()


GATE = (("layout_iou", ">0.8", lambda v: v > LAYOUT_IOU_MIN), ("start_moved", "=0", lambda v: v == 0.0),
        ("target_moved", "=0", lambda v: v == 0.0), ("cross_wall", "=0", lambda v: v == 0.0),
        ("target_achievement", ">0.95", lambda v: v > TARGET_ACHIEVEMENT_MIN),
        ("excessive_reflection", "=0", lambda v: v == 0.0))


def read_rgb(path):
    bgr = cv2.imread(path, cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError("not a decodable image: " + path)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def score_case(case, references):
    rows, cols = int(case["rows"]), int(case["cols"])
    key = (case["problem"], case["solution"], rows, cols)
    ref = references.get(key)
    if ref is None:
        ref = Reference(Canvas(read_rgb(case["problem"]), rows, cols),
                        Canvas(read_rgb(case["solution"]), rows, cols, walls=False), rows, cols)
        references[key] = ref
    out = case["output"]
    video = out.lower().endswith((".mp4", ".m4v", ".mov", ".webm", ".mkv"))
    m = score_video(ref, out, case.get("model", "")) if video else score_image(ref, Canvas(read_rgb(out), rows, cols))
    failed = [k + e for k, e, ok in GATE if not ok(m[k])]
    result = {"modality": "video" if video else "image", "maze_changed": m["maze_changed"], "cross_wall": m["cross_wall"],
              "target_achievement": m["target_achievement"], "action_reflection": m["action_reflection"],
              "overall": 0.0 if failed else 1.0, "failed_checks": failed}
    result.update(m)
    return result


def main():
    if len(sys.argv) != 2:
        print("usage: maze_eval.py CASES.jsonl", file=sys.stderr)
        return 2
    references = {}
    failures = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            result = {}
            try:
                case = json.loads(line)
                result["id"] = case.get("id", "line-%d" % n)
                result.update(score_case(case, references))
            except (ReferenceError_, ValueError, KeyError, cv2.error) as e:
                failures += 1
                result["error"] = str(e)
            print(json.dumps(result))
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
