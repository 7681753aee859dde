// mmgr-stream dashboard: plain JavaScript, no build step, nothing fetched from elsewhere.
// State comes from the REST API once, then from server-sent events (/api/events).
'use strict';

const ALL = '*';
const COLORS = ['#2f6fde', '#d64545', '#1f9d55', '#c98a00', '#8e44ad', '#16a3a3', '#e67e22', '#5d6d7e', '#c0392b', '#27ae60'];

const state = {
  run: null,
  checkpoint: null,       // selected checkpoint id (null: the latest)
  rows: new Map(),        // run|checkpoint|task -> leaderboard row
  comparisons: new Map(), // run|checkpoint|task -> comparison
  alerts: new Map(),      // run|checkpoint|task|kind -> alert
  live: new Set(),        // keys updated by the live feed (newer than the snapshot)
  drill: null,            // {checkpoint, task}
  sample: null,
};

// counters a person or a test can read: live events received, renders, the page's identity
window.mmgr = { events: 0, renders: 0, loadId: Math.random().toString(36).slice(2) };

const $ = (sel) => document.querySelector(sel);
const key = (...parts) => parts.join('|');
const pct = (x) => (x == null ? '–' : (100 * x).toFixed(1) + '%');
const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

async function getJson(url) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url, { cache: 'no-store' });
    if (r.status === 503 && attempt < 20) { // starting or rebalancing: the answer comes shortly
      await new Promise((res) => setTimeout(res, 500));
      continue;
    }
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
    return body;
  }
}

// ---------- data ----------

function putRow(row, fromLive) {
  const k = key(row.runId, row.checkpointId, row.task);
  if (!fromLive && state.live.has(k)) return; // the live feed already has a newer one
  if (fromLive) state.live.add(k);
  state.rows.set(k, row);
}

function putComparison(c) { state.comparisons.set(key(c.runId, c.checkpointId, c.task), c); }
function putAlert(a) { state.alerts.set(key(a.runId, a.checkpointId, a.task, a.kind), a); }

function runs() {
  const set = new Set();
  for (const r of state.rows.values()) set.add(r.runId);
  return [...set].sort();
}

function checkpointsOf(run) {
  const list = [];
  for (const r of state.rows.values()) if (r.runId === run && r.task === ALL) list.push(r);
  return list.sort((a, b) => a.trainingStep - b.trainingStep || a.checkpointId.localeCompare(b.checkpointId));
}

function tasksOf(run) {
  const set = new Set();
  for (const r of state.rows.values()) if (r.runId === run && r.task !== ALL) set.add(r.task);
  return [...set].sort();
}

function selectedCheckpoint() {
  const cks = checkpointsOf(state.run);
  if (state.checkpoint && cks.some((c) => c.checkpointId === state.checkpoint)) return state.checkpoint;
  return cks.length ? cks[cks.length - 1].checkpointId : null;
}

// ---------- rendering (coalesced to one per frame) ----------

let renderQueued = false;
function render() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    window.mmgr.renders++;
    renderRuns();
    renderCheckpoints();
    renderChart();
    renderBoard();
    renderAlerts();
  });
}

function renderRuns() {
  const sel = $('#run');
  const list = runs();
  if (!state.run && list.length) state.run = list[list.length - 1];
  const html = list.map((r) => `<option${r === state.run ? ' selected' : ''}>${esc(r)}</option>`).join('');
  if (sel.innerHTML !== html) sel.innerHTML = html;
  const cks = checkpointsOf(state.run);
  $('#model').textContent = cks.length && cks[cks.length - 1].model ? 'model ' + cks[cks.length - 1].model : '';
}

function renderCheckpoints() {
  const current = selectedCheckpoint();
  const items = checkpointsOf(state.run).map((c) => {
    const frac = c.samplesExpected ? Math.min(1, c.samplesScored / c.samplesExpected) : 0;
    const done = c.samplesExpected > 0 && c.samplesScored >= c.samplesExpected;
    return `<li data-checkpoint="${esc(c.checkpointId)}" class="${c.checkpointId === current ? 'selected' : ''}">
      <div class="row"><b>${esc(c.checkpointId)}</b><span class="muted">step ${c.trainingStep}</span></div>
      <div class="row"><span>${pct(c.primaryRate)}</span><span class="muted progress-text">${c.samplesScored} / ${c.samplesExpected}${c.samplesPending ? ' · ' + c.samplesPending + ' pending' : ''}</span></div>
      <div class="bar${done ? ' done' : ''}"><span style="width:${(100 * frac).toFixed(1)}%"></span></div></li>`;
  });
  $('#checkpoints').innerHTML = items.join('') || '<li class="muted">waiting for scores…</li>';
}

function renderChart() {
  const tasks = tasksOf(state.run);
  const series = tasks.map((t, i) => {
    const pts = [];
    for (const r of state.rows.values()) {
      if (r.runId === state.run && r.task === t && r.primaryRate != null) pts.push(r);
    }
    pts.sort((a, b) => a.trainingStep - b.trainingStep);
    return { task: t, color: COLORS[i % COLORS.length], pts };
  });
  const all = series.flatMap((s) => s.pts);
  const W = 900, H = 280, L = 44, R = 12, T = 10, B = 30;
  let minX = Math.min(...all.map((p) => p.trainingStep)), maxX = Math.max(...all.map((p) => p.trainingStep));
  if (!all.length) { minX = 0; maxX = 1; }
  if (minX === maxX) { minX -= 1; maxX += 1; }
  const x = (v) => L + (W - L - R) * (v - minX) / (maxX - minX);
  const y = (v) => T + (H - T - B) * (1 - v);
  let svg = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" data-points="${all.length}">`;
  for (let g = 0; g <= 4; g++) {
    const v = g / 4;
    svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${100 * v}%</text>`;
  }
  svg += `<line class="axis" x1="${L}" x2="${W - R}" y1="${y(0)}" y2="${y(0)}"/>`;
  const steps = [...new Set(all.map((p) => p.trainingStep))].sort((a, b) => a - b);
  const every = Math.max(1, Math.ceil(steps.length / 10));
  steps.forEach((s, i) => { if (i % every === 0) svg += `<text x="${x(s)}" y="${H - 10}" text-anchor="middle">${s}</text>`; });
  series.forEach((s, i) => {
    if (!s.pts.length) return;
    const dx = (i - (series.length - 1) / 2) * 5; // side by side, so intervals at one step stay readable
    const px = (p) => x(p.trainingStep) + dx;
    svg += `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.pts.map((p) => px(p) + ',' + y(p.primaryRate)).join(' ')}"/>`;
    for (const p of s.pts) {
      if (p.primaryCiLow != null) {
        svg += `<line stroke="${s.color}" stroke-opacity=".35" stroke-width="4" x1="${px(p)}" x2="${px(p)}" y1="${y(p.primaryCiLow)}" y2="${y(p.primaryCiHigh)}"/>`;
      }
      svg += `<circle class="pt" r="4" fill="${s.color}" cx="${px(p)}" cy="${y(p.primaryRate)}"><title>${esc(s.task)} ${esc(p.checkpointId)}: ${pct(p.primaryRate)} [${pct(p.primaryCiLow)}, ${pct(p.primaryCiHigh)}], n=${p.primaryCount}</title></circle>`;
    }
  });
  svg += '</svg>';
  $('#chart').innerHTML = svg;
  $('#legend').innerHTML = series.map((s) => `<span><i style="background:${s.color}"></i>${esc(s.task)}</span>`).join('');
}

function ciBar(r) {
  if (r.primaryRate == null) return '';
  const lo = 100 * r.primaryCiLow, hi = 100 * r.primaryCiHigh, p = 100 * r.primaryRate;
  return `<span class="ci" title="95% Wilson interval ${pct(r.primaryCiLow)} – ${pct(r.primaryCiHigh)}"><span class="range" style="left:${lo}%;width:${hi - lo}%"></span><span class="point" style="left:calc(${p}% - 1px)"></span></span>`;
}

function delta(c) {
  if (!c) return '<span class="muted">–</span>';
  const d = 100 * c.difference;
  const cls = d > 0 ? 'up' : d < 0 ? 'down' : '';
  const sig = c.significantDrop ? ' <span class="sig" title="significant drop">▼</span>' : '';
  return `<span class="delta ${cls}" title="${esc(c.note)}; ${c.method}; vs ${esc(c.baselineCheckpointId)}">${d >= 0 ? '+' : ''}${d.toFixed(1)} pts${sig}</span>
    <div class="muted small">[${(100 * c.ciLow).toFixed(1)}, ${(100 * c.ciHigh).toFixed(1)}] p=${c.pValue < 0.001 ? c.pValue.toExponential(1) : c.pValue.toFixed(3)}${c.partial ? ' · partial' : ''}</div>`;
}

function metricsCell(r) {
  const names = Object.keys(r.metrics || {}).filter((m) => !m.startsWith('gate.')).sort();
  const pass = Object.entries(r.passAtK || {}).map(([k, v]) => `<b>${esc(k)}</b> ${v.mean.toFixed(3)}`);
  const shown = names.slice(0, 8).map((m) => `<b>${esc(m.replace(/^[^.]+\./, ''))}</b> ${r.metrics[m].mean.toFixed(3)}`);
  const more = names.length > 8 ? ` <span title="${esc(names.slice(8).join(', '))}">+${names.length - 8} more</span>` : '';
  return `<div class="metrics">${shown.concat(pass).join(' · ')}${more}</div>`;
}

function renderBoard() {
  const ck = selectedCheckpoint();
  $('#board-title').textContent = ck ? `${state.run} · ${ck}` : '';
  const rows = [];
  for (const r of state.rows.values()) if (r.runId === state.run && r.checkpointId === ck) rows.push(r);
  rows.sort((a, b) => (a.task === ALL) - (b.task === ALL) || a.task.localeCompare(b.task));
  $('#leaderboard tbody').innerHTML = rows.map((r) => {
    const c = state.comparisons.get(key(r.runId, r.checkpointId, r.task));
    const flags = (r.flags || []).map((f) => `<span class="flag ${f.level}" title="${esc(f.text)}">${esc(f.code)}</span>`).join('');
    return `<tr data-task="${esc(r.task)}" class="${r.task === ALL ? 'all' : ''}">
      <td>${r.task === ALL ? 'all tasks' : esc(r.task)}</td>
      <td>${pct(r.primaryRate)} ${ciBar(r)}</td>
      <td>${r.primaryCount} <span class="muted">/ ${r.samplesExpected}</span>${r.samplesPending ? ` <span class="pend">${r.samplesPending} pending</span>` : ''}</td>
      <td>${r.task === ALL ? '' : delta(c && c.vsPrevious)}</td>
      <td>${r.task === ALL ? '' : c && c.vsPrevious && !c.vsBest ? '<span class="muted" title="the previous checkpoint is the best earlier one">= previous</span>' : delta(c && c.vsBest)}</td>
      <td>${metricsCell(r)}</td>
      <td>${flags}</td></tr>`;
  }).join('') || '<tr><td colspan="7" class="muted">no scores for this checkpoint yet</td></tr>';
}

function renderAlerts() {
  const list = [...state.alerts.values()].filter((a) => a.runId === state.run)
    .sort((a, b) => String(b.raisedAt).localeCompare(String(a.raisedAt)));
  $('#alert-count').textContent = list.length ? list.length : '';
  $('#alerts').innerHTML = list.map((a) => `<li data-checkpoint="${esc(a.checkpointId)}"><b>${esc(a.task)}</b> ${esc(a.checkpointId)} vs ${esc(a.baselineCheckpointId)}:
    ${pct(a.baselineRate)} → ${pct(a.rate)} (p=${a.pValue.toExponential(1)})<div class="muted">${esc(a.message)}</div></li>`).join('')
    || '<li class="muted">none</li>';
}

// ---------- drill-down ----------

async function openDrill(task) {
  const ck = selectedCheckpoint();
  if (!ck) return;
  state.drill = { checkpoint: ck, task };
  $('#drilldown').hidden = false;
  $('#drill-title').textContent = `${task === ALL ? 'all tasks' : task} · ${ck}`;
  await loadDrillList();
}

async function loadDrillList() {
  const d = state.drill;
  const tasks = d.task === ALL ? tasksOf(state.run) : [d.task];
  const failing = $('#drill-failing').checked;
  const lists = await Promise.all(tasks.map((t) => getJson(`/api/samples?run=${enc(state.run)}&checkpoint=${enc(d.checkpoint)}&task=${enc(t)}&limit=200${failing ? '&outcome=fail' : ''}`)));
  const samples = lists.flat();
  $('#drill-list').innerHTML = samples.map((s) => {
    const cls = s.status === 'PENDING' ? 'pend' : s.primary === 1 ? 'pass' : 'fail';
    const label = s.primary == null ? s.status.toLowerCase() : s.primary.toFixed(2);
    return `<li data-task="${esc(s.task)}" data-sample="${esc(s.sampleId)}" data-seed="${s.seed}"><span>${esc(s.sampleId)}${s.seed ? '#' + s.seed : ''}</span><span class="${cls}">${label}</span></li>`;
  }).join('') || '<li class="muted">no samples</li>';
}

async function openSample(task, sample, seed) {
  const d = state.drill;
  const url = `/api/sample?run=${enc(state.run)}&checkpoint=${enc(d.checkpoint)}&task=${enc(task)}&sample=${enc(sample)}&seed=${seed}`;
  const s = await getJson(url);
  state.sample = s;
  for (const li of document.querySelectorAll('#drill-list li')) {
    li.classList.toggle('selected', li.dataset.sample === sample && li.dataset.task === task && li.dataset.seed === String(seed));
  }
  const sc = s.score;
  const media = (refs) => (refs || []).map((a) => {
    const cap = `<figcaption>${esc(a.role)} · ${esc(a.mediaType)}</figcaption>`;
    if (a.mediaType.startsWith('image/')) return `<figure><img src="${a.href}" alt="${esc(a.role)}">${cap}</figure>`;
    if (a.mediaType.startsWith('video/')) return `<figure><video src="${a.href}" controls muted loop autoplay playsinline></video>${cap}</figure>`;
    return `<figure><a href="${a.href}" target="_blank">${esc(a.role)}</a>${cap}</figure>`;
  }).join('');
  const metrics = Object.entries(sc.metrics).sort().map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v == null ? '–' : (+v).toFixed(4)}</td></tr>`).join('');
  const gates = Object.entries(sc.gates).sort().map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v == null ? 'missing' : v}</td></tr>`).join('');
  const just = Object.entries(sc.justifications || {}).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('');
  const item = s.item || {};
  const truth = item.groundTruth ? Object.fromEntries(Object.entries(item.groundTruth).filter(([, v]) => v != null && !(typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length))) : null;
  $('#sample-detail').dataset.sample = sc.sampleId;
  $('#sample-detail').innerHTML = `
    <h3>${esc(sc.task)} / ${esc(sc.sampleId)}${sc.seed ? '#' + sc.seed : ''} — <span class="${sc.primary === 1 ? 'pass' : sc.status === 'PENDING' ? 'pend' : 'fail'}">${sc.status}, primary ${sc.primary == null ? 'none' : sc.primary}</span></h3>
    <div class="muted small">${esc(sc.checkpointId)} (step ${sc.trainingStep}) · gate ${esc(sc.primarySource || '–')} · answered by ${esc(s.answeredBy || '')}</div>
    <h3>Why</h3><ul class="why">${(s.why || []).map((w) => `<li>${esc(w)}</li>`).join('') || '<li class="pass">passed every check</li>'}</ul>
    <h3>Generation</h3><div class="media" id="generation">${media(s.artifacts) || '<span class="muted">no artifacts (inputs travel inline)</span>'}</div>
    <h3>Reference</h3><div class="media" id="reference">${media(item.artifacts)}</div>
    ${item.prompt ? `<p class="small">${esc(item.prompt)}</p>` : ''}
    <h3>Fine-grained metrics</h3><table class="kv">${metrics}</table>
    <h3>Gates</h3><table class="kv">${gates}</table>
    ${just ? `<h3>Judge justifications</h3><table class="kv">${just}</table>` : ''}
    ${truth ? `<h3>Ground truth</h3><pre>${esc(JSON.stringify(truth, null, 1))}</pre>` : ''}`;
}

const enc = encodeURIComponent;

// ---------- wiring ----------

function connect() {
  const es = new EventSource('/api/events');
  const status = $('#status');
  es.onopen = () => { status.textContent = 'live'; status.className = 'status live'; };
  es.onerror = () => { status.textContent = 'reconnecting…'; status.className = 'status down'; };
  const on = (type, fn) => es.addEventListener(type, (e) => {
    window.mmgr.events++;
    fn(JSON.parse(e.data));
    render();
  });
  on('row', (r) => putRow(r, true));
  on('comparison', putComparison);
  on('alert', putAlert);
  return es;
}

async function loadSnapshot() {
  const [rows, comparisons, alerts] = await Promise.all([getJson('/api/leaderboard'), getJson('/api/comparisons'), getJson('/api/alerts')]);
  rows.forEach((r) => putRow(r, false));
  comparisons.forEach(putComparison);
  alerts.forEach(putAlert);
  render();
}

document.addEventListener('DOMContentLoaded', () => {
  $('#run').addEventListener('change', (e) => { state.run = e.target.value; state.checkpoint = null; render(); });
  $('#checkpoints').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-checkpoint]');
    if (li) { state.checkpoint = li.dataset.checkpoint; render(); }
  });
  $('#alerts').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-checkpoint]');
    if (li) { state.checkpoint = li.dataset.checkpoint; render(); }
  });
  $('#leaderboard tbody').addEventListener('click', (e) => {
    const tr = e.target.closest('tr[data-task]');
    if (tr) openDrill(tr.dataset.task).catch(showError);
  });
  $('#drill-list').addEventListener('click', (e) => {
    const li = e.target.closest('li[data-sample]');
    if (li) openSample(li.dataset.task, li.dataset.sample, +li.dataset.seed).catch(showError);
  });
  $('#drill-failing').addEventListener('change', () => loadDrillList().catch(showError));
  $('#drill-close').addEventListener('click', () => { $('#drilldown').hidden = true; state.drill = null; });
  connect(); // first, so nothing published while the snapshot loads is missed
  loadSnapshot().catch(showError);
});

function showError(e) {
  $('#status').textContent = 'error: ' + e.message;
  $('#status').className = 'status down';
}
