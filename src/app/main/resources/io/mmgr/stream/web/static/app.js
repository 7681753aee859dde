// mmgr-stream dashboard: plain JavaScript, no build step, nothing fetched from elsewhere.
// State comes from the REST API once, then from server-sent events (/api/events).
'use strict';

const ALL = '*';
// the report's colours too (io.mmgr.stream.report.ReportPage): a task keeps its colour whatever else appears
const COLORS = ['#2f6fde', '#d64545', '#1f9d55', '#c98a00', '#8e44ad', '#16a3a3', '#e67e22', '#5d6d7e', '#b03a8c', '#6b8e23'];
const ALL_COLOR = '#111111';
function colorOf(task) {
  if (task === ALL) return ALL_COLOR;
  let h = 0x811c9dc5; // FNV-1a over UTF-16 code units, as ReportPage.color
  for (let i = 0; i < task.length; i++) h = Math.imul(h ^ task.charCodeAt(i), 0x01000193);
  return COLORS[(h >>> 0) % COLORS.length];
}
const EMPTY = 'Waiting for the first scores: publish a benchmark and generation events (the demo does it for you).';

const state = {
  run: null,
  checkpoint: null,       // selected checkpoint id (null: the latest)
  rows: new Map(),        // run|checkpoint|task -> leaderboard row
  comparisons: new Map(), // run|checkpoint|task -> comparison
  alerts: new Map(),      // run|checkpoint|task|kind -> alert
  live: new Set(),        // keys updated by the live feed (newer than the snapshot)
  drill: null,            // {checkpoint, task}
  judgeCost: null,        // /api/judge-cost of state.run: {run, judge, checkpoints: [...]}
  sample: null,
};

// counters a person or a test can read: live events received, renders, the page's identity
window.mmgr = { events: 0, renders: 0, loadId: Math.random().toString(36).slice(2), cspViolations: [] };
// the page runs under a Content-Security-Policy (WebServer): whatever it blocks is counted here, for a person or a test
document.addEventListener('securitypolicyviolation', (e) => window.mmgr.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));

const $ = (sel) => document.querySelector(sel);
const key = (...parts) => parts.join('|');
const pct = (x) => (x == null ? '–' : (100 * x).toFixed(1) + '%');
// the policy forbids style attributes in markup; styles given as data-style are set through the CSSOM, which it allows
function setHtml(el, html) {
  el.innerHTML = html;
  for (const e of el.querySelectorAll('[data-style]')) e.style.cssText = e.dataset.style;
}
const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

async function getJson(url) {
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(url, { cache: 'no-store' });
    if (r.status === 401) { showLogin(); throw new Error('the access token is required'); }
    if (r.status === 503 && attempt < 20) { // starting or rebalancing: the answer comes shortly
      await new Promise((res) => setTimeout(res, 500));
      continue;
    }
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
    if (Array.isArray(body)) showPartial(r.headers.get('X-MMGR-Partial'));
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
// an alert is brought up to date on its key; a withdrawn one (cleared) goes
function putAlert(a) {
  const k = key(a.runId, a.checkpointId, a.task, a.kind);
  if (a.cleared) state.alerts.delete(k); else state.alerts.set(k, a);
}

// the best checkpoint: highest all-tasks rate among the fully scored ones (all, while none is), as ReportPage.best
function bestCheckpoint(cks) {
  const rated = cks.filter((c) => c.primaryRate != null);
  const complete = rated.filter((c) => c.samplesExpected > 0 && c.samplesScored >= c.samplesExpected);
  let best = null;
  for (const c of (complete.length ? complete : rated)) if (!best || c.primaryRate > best.primaryRate) best = c;
  return best ? best.checkpointId : null;
}

// integers as integers (a count of trials is no rate), other values to three decimals
const num = (v) => (Number.isInteger(v) ? String(v) : (+v).toFixed(3));

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
  const cks = checkpointsOf(state.run);
  const best = bestCheckpoint(cks);
  const items = cks.map((c) => {
    const frac = c.samplesExpected ? Math.min(1, c.samplesScored / c.samplesExpected) : 0;
    const done = c.samplesExpected > 0 && c.samplesScored >= c.samplesExpected;
    const isBest = c.checkpointId === best;
    return `<li data-checkpoint="${esc(c.checkpointId)}" class="${c.checkpointId === current ? 'selected' : ''}${isBest ? ' best' : ''}">
      <div class="row"><b>${esc(c.checkpointId)}${isBest ? ' <span class="best-mark" title="best checkpoint: highest all-tasks score">★ best</span>' : ''}</b><span class="muted">step ${c.trainingStep}</span></div>
      <div class="row"><span>${pct(c.primaryRate)}</span><span class="muted progress-text">${c.samplesScored} / ${c.samplesExpected}${c.samplesPending ? ' · ' + c.samplesPending + ' pending' : ''}${c.samplesPartial ? ' · ' + c.samplesPartial + ' with unavailable parts' : ''}</span></div>
      <div class="bar${done ? ' done' : ''}"><span data-style="width:${(100 * frac).toFixed(1)}%"></span></div>${judgeCostLine(c.checkpointId)}</li>`;
  });
  setHtml($('#checkpoints'), items.join('') || `<li class="muted empty">${EMPTY}</li>`);
  refreshJudgeCost();
  const report = $('#report-link');
  if (report) {
    report.hidden = !state.run;
    if (state.run) report.href = `/api/report?run=${enc(state.run)}&checkpoint=${enc(current || '')}`;
  }
}

function renderChart() {
  const tasks = tasksOf(state.run).concat(checkpointsOf(state.run).length ? [ALL] : []);
  const series = tasks.map((t) => {
    const pts = [];
    for (const r of state.rows.values()) {
      if (r.runId === state.run && r.task === t && r.primaryRate != null) pts.push(r);
    }
    pts.sort((a, b) => a.trainingStep - b.trainingStep);
    return { task: t, color: colorOf(t), pts };
  });
  const all = series.filter((s) => s.task !== ALL).flatMap((s) => s.pts);
  const W = 900, H = 290, L = 48, R = 40, T = 14, B = 40; // R leaves room for the last step's label
  const steps = [...new Set(series.flatMap((s) => s.pts).map((p) => p.trainingStep))].sort((a, b) => a - b);
  let minX = steps.length ? steps[0] : 0, maxX = steps.length ? steps[steps.length - 1] : 1;
  if (minX === maxX) { minX -= 1; maxX += 1; }
  const x = (v) => L + (W - L - R) * (v - minX) / (maxX - minX);
  const y = (v) => T + (H - T - B) * (1 - v);
  const cks = checkpointsOf(state.run);
  const best = bestCheckpoint(cks);
  const selected = selectedCheckpoint();
  let svg = `<svg viewBox="0 0 ${W} ${H}" data-points="${all.length}" data-best="${esc(best || '')}" data-selected="${esc(selected || '')}">`;
  for (let g = 0; g <= 4; g++) {
    const v = g / 4;
    svg += `<line class="grid" x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}"/><text x="${L - 6}" y="${y(v) + 4}" text-anchor="end">${100 * v}%</text>`;
  }
  svg += `<line class="axis" x1="${L}" x2="${W - R}" y1="${y(0)}" y2="${y(0)}"/>`;
  const every = Math.max(1, Math.ceil(steps.length / 10));
  steps.forEach((s, i) => {
    if (i % every !== 0 && i !== steps.length - 1) return;
    svg += `<text class="xlabel" x="${x(s)}" y="${H - B + 16}" text-anchor="middle">${s}</text>`;
  });
  svg += `<text class="axis-title" x="${L + (W - L - R) / 2}" y="${H - 4}" text-anchor="middle">training step</text>`;
  const sel = cks.find((c) => c.checkpointId === selected);
  if (sel) svg += `<line class="selected-mark" x1="${x(sel.trainingStep)}" x2="${x(sel.trainingStep)}" y1="${T}" y2="${y(0)}"><title>selected: ${esc(selected)}</title></line>`;
  const taskSeries = series.filter((s) => s.task !== ALL);
  series.forEach((s) => {
    if (!s.pts.length) return;
    const isAll = s.task === ALL;
    const i = taskSeries.indexOf(s);
    const dx = isAll ? 0 : (i - (taskSeries.length - 1) / 2) * 5; // side by side, so intervals at one step stay readable
    const px = (p) => x(p.trainingStep) + dx;
    svg += `<polyline data-task="${esc(s.task)}" fill="none" stroke="${s.color}" stroke-width="${isAll ? 3.5 : 2}"${isAll ? ' stroke-dasharray="7 4"' : ''} points="${s.pts.map((p) => px(p) + ',' + y(p.primaryRate)).join(' ')}"/>`;
    for (const p of s.pts) {
      if (!isAll && p.primaryCiLow != null) {
        svg += `<line stroke="${s.color}" stroke-opacity=".35" stroke-width="4" x1="${px(p)}" x2="${px(p)}" y1="${y(p.primaryCiLow)}" y2="${y(p.primaryCiHigh)}"/>`;
      }
      svg += `<circle class="pt" data-task="${esc(s.task)}" r="${isAll ? 4.5 : 4}" fill="${s.color}" cx="${px(p)}" cy="${y(p.primaryRate)}"><title>${isAll ? 'all tasks' : esc(s.task)} ${esc(p.checkpointId)}: ${pct(p.primaryRate)} [${pct(p.primaryCiLow)}, ${pct(p.primaryCiHigh)}], n=${p.primaryCount}</title></circle>`;
      if (isAll && p.checkpointId === best) {
        svg += `<text class="best-mark" x="${px(p)}" y="${y(p.primaryRate) - 10}" text-anchor="middle">★ best</text>`;
      }
    }
  });
  if (!steps.length) svg += `<text class="empty" x="${W / 2}" y="${H / 2}" text-anchor="middle">${esc(EMPTY)}</text>`;
  svg += '</svg>';
  $('#chart').innerHTML = svg;
  setHtml($('#legend'), series.map((s) => `<span data-task="${esc(s.task)}" data-color="${s.color}"><i data-style="background:${s.color}"></i>${s.task === ALL ? 'all tasks' : esc(s.task)}</span>`).join(''));
}

function ciBar(r) {
  if (r.primaryRate == null) return '';
  const lo = 100 * r.primaryCiLow, hi = 100 * r.primaryCiHigh, p = 100 * r.primaryRate;
  return `<span class="ci" title="95% Wilson interval ${pct(r.primaryCiLow)} – ${pct(r.primaryCiHigh)}"><span class="range" data-style="left:${lo}%;width:${hi - lo}%"></span><span class="point" data-style="left:calc(${p}% - 1px)"></span></span>`;
}

function delta(c) {
  if (!c) return '<span class="muted">–</span>';
  const d = 100 * c.difference;
  const cls = d > 0 ? 'up' : d < 0 ? 'down' : '';
  const sig = c.significantDrop ? ' <span class="sig" title="significant drop">▼</span>'
    : d < 0 && c.pValue < 0.01 ? ` <span class="under-min" title="significant (p &lt; 0.01) but no alert: compared on ${c.samples} samples, under the alert minimum, or a drop under the minimum">△ too few to alert</span>` : '';
  return `<span class="delta ${cls}" title="${esc(c.note)}; ${c.method}; vs ${esc(c.baselineCheckpointId)}">${d >= 0 ? '+' : ''}${d.toFixed(1)} pts${sig}</span>
    <div class="muted small">[${(100 * c.ciLow).toFixed(1)}, ${(100 * c.ciHigh).toFixed(1)}] p=${c.pValue < 0.001 ? c.pValue.toExponential(1) : c.pValue.toFixed(3)}${c.partial ? ' · partial' : ''}</div>`;
}

function metricsCell(r) {
  const names = Object.keys(r.metrics || {}).filter((m) => !m.startsWith('gate.')).sort();
  const pass = Object.entries(r.passAtK || {}).map(([k, v]) => `<b>${esc(k)}</b> ${v.mean.toFixed(3)}`);
  const shown = names.slice(0, 8).map((m) => `<b>${esc(m.replace(/^[^.]+\./, ''))}</b> ${num(r.metrics[m].mean)}`);
  const more = names.length > 8 ? ` <span title="${esc(names.slice(8).join(', '))}">+${names.length - 8} more</span>` : '';
  return `<div class="metrics">${shown.concat(pass).join(' · ')}${more}</div>`;
}

function renderBoard() {
  const ck = selectedCheckpoint();
  $('#board-title').textContent = ck ? `${state.run} · ${ck}` : '';
  const rows = [];
  for (const r of state.rows.values()) if (r.runId === state.run && r.checkpointId === ck) rows.push(r);
  rows.sort((a, b) => (a.task === ALL) - (b.task === ALL) || a.task.localeCompare(b.task));
  setHtml($('#leaderboard tbody'), rows.map((r) => {
    const c = state.comparisons.get(key(r.runId, r.checkpointId, r.task));
    const flags = (r.flags || []).map((f) => `<span class="flag ${f.level}" title="${esc(f.text)}">${esc(f.code)}</span>`).join('');
    return `<tr data-task="${esc(r.task)}" class="${r.task === ALL ? 'all' : ''}">
      <td>${r.task === ALL ? 'all tasks' : esc(r.task)}</td>
      <td>${pct(r.primaryRate)} ${ciBar(r)}</td>
      <td>${r.primaryCount} <span class="muted">/ ${r.samplesExpected}</span>${r.samplesPending ? ` <span class="pend" title="still coming">${r.samplesPending} pending</span>` : ''}${r.samplesPartial ? ` <span class="unavail" title="scored without parts that cannot arrive (e.g. no judge configured)">${r.samplesPartial} with unavailable parts</span>` : ''}</td>
      <td>${delta(c && c.vsPrevious)}</td>
      <td>${c && c.vsPrevious && !c.vsBest ? '<span class="muted" title="the previous checkpoint is the best earlier one">= previous</span>' : delta(c && c.vsBest)}</td>
      <td>${metricsCell(r)}</td>
      <td>${flags}</td></tr>`;
  }).join('') || `<tr><td colspan="7" class="muted empty">${ck ? 'no scores for this checkpoint yet' : EMPTY}</td></tr>`);
}

function renderAlerts() {
  const list = [...state.alerts.values()].filter((a) => a.runId === state.run)
    .sort((a, b) => String(b.raisedAt).localeCompare(String(a.raisedAt)));
  $('#alert-count').textContent = list.length ? list.length : '';
  $('#alerts').innerHTML = list.map((a) => `<li data-checkpoint="${esc(a.checkpointId)}" data-task="${esc(a.task)}" data-kind="${esc(a.kind)}" data-partial="${a.partial}" data-revision="${a.revision}"><b>${a.task === ALL ? 'all tasks' : esc(a.task)}</b> ${esc(a.checkpointId)} vs ${esc(a.baselineCheckpointId)}:
    ${pct(a.baselineRate)} → ${pct(a.rate)} on ${a.samples} samples (p=${a.pValue.toExponential(1)})${a.partial ? ' <span class="pend">partial, updating</span>' : ''}${a.revision > 1 ? ` <span class="muted">updated ×${a.revision - 1}</span>` : ''}<div class="muted">${esc(a.message)}</div></li>`).join('')
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
    const label = s.primary == null ? (s.status === 'PARTIAL' ? 'unavailable' : s.status.toLowerCase()) : num(s.primary);
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
  const metrics = Object.entries(sc.metrics).sort().map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v == null ? '–' : Number.isInteger(+v) ? +v : (+v).toFixed(4)}</td></tr>`).join('');
  const gates = Object.entries(sc.gates).sort().map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v == null ? (sc.status === 'PENDING' ? 'pending' : 'unavailable') : v}</td></tr>`).join('');
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

// the judge's spend (from the verdicts, every scorer's partitions) and projected cost (the judge workers' records)
// per checkpoint, the same with an in-process judge and with judge workers
const usd = (v) => (v == null ? '–' : '$' + Number(v).toFixed(4));
function judgeCostLine(ck) {
  const jc = state.judgeCost;
  if (!jc || jc.run !== state.run) return '';
  const c = jc.checkpoints.find((x) => x.checkpoint === ck);
  if (!c) return '';
  return `<div class="row muted small" title="judge calls ${c.calls}; projected: ${c.plannedRequests == null ? '–' : c.plannedRequests} requests x judges x samples x cost a call x lane factor">judge cost ${usd(c.spentUsd)} · projected ${usd(c.projectedUsd)}</div>`;
}

let judgeCostAt = 0;
function refreshJudgeCost() {
  // at most every 5 s: the figures move with every call, the list re-renders with every row
  const now = Date.now();
  if (!state.run || (state.judgeCost && state.judgeCost.run === state.run && now - judgeCostAt < 5000)) return;
  judgeCostAt = now;
  getJson(`/api/judge-cost?run=${enc(state.run)}`).then((jc) => {
    const before = JSON.stringify(state.judgeCost);
    state.judgeCost = jc;
    if (JSON.stringify(jc) !== before) renderCheckpoints();
  }).catch(() => { /* the cost line is optional: the list stands without it */ });
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
  // the empty state at once: render() waits for an animation frame, which a page in the background (or a
  // headless one) may not get before it says it is live
  renderCheckpoints();
  $('#login').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('#login-token');
    openSession(input.value).then((ok) => {
      input.value = '';
      if (!ok) { $('#login-error').textContent = 'not the scorer\'s token'; return; }
      $('#login').hidden = true;
      start().catch(showError);
    }).catch(showError);
  });
  start().catch(showError);
});

// ---------- access ----------
// The scorer may require an access token (--web-token). <img>, <video> and EventSource cannot send a header, so the
// page trades the token once, with the header, for an HttpOnly SameSite=Strict session cookie (WebAccess): media and
// live updates then work as they are, no script here holds the secret afterwards, and other sites cannot send it.
// The token comes from the form, or once from the URL's fragment (#token=...), which browsers never send to a
// server; the fragment is removed from the address bar and history at once.
async function openSession(token) {
  const r = await fetch('/api/session', { method: 'POST', headers: { Authorization: 'Bearer ' + token }, cache: 'no-store' });
  return r.ok;
}

let started = false;
async function start() {
  const m = /(?:^#|&)token=([^&]*)/.exec(location.hash);
  if (m) {
    history.replaceState(null, '', location.pathname + location.search);
    await openSession(decodeURIComponent(m[1]));
  }
  const probe = await fetch('/api/instances', { cache: 'no-store' });
  if (probe.status === 401) { showLogin(); return; }
  if (started) return;
  started = true;
  connect(); // first, so nothing published while the snapshot loads is missed
  await loadSnapshot();
}

// a list gathered while another instance could not answer (gone, its session not yet expired) holds what the
// live instances have; the server names the missing ones (ApiHandler.PARTIAL) and the page says so
function showPartial(missing) {
  const el = $('#partial');
  el.hidden = !missing;
  el.textContent = missing ? 'partial: ' + missing + ' not answering' : '';
}

function showLogin() {
  $('#login').hidden = false;
  $('#status').textContent = 'access token required';
  $('#status').className = 'status down';
  $('#login-token').focus();
}

function showError(e) {
  $('#status').textContent = 'error: ' + e.message;
  $('#status').className = 'status down';
}
