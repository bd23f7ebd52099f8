// The munda playground's page: no framework, no build step. munda itself
// runs in a worker (worker.js) as WebAssembly; this script only builds
// requests from the form, shows the answers, and keeps everything in the
// URL fragment so that a link shares it.
"use strict";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------
// Talking to munda: one worker, calls answered in order.

const calls = new Map();
let nextCall = 1;
let worker = null;
let workerReady = null;

function startWorker() {
  worker = new Worker("worker.js");
  workerReady = new Promise((resolve, reject) => {
    worker.onmessage = (e) => {
      const m = e.data;
      if ("ready" in m) {
        if (m.ready) resolve();
        else reject(new Error(m.failure));
        return;
      }
      const c = calls.get(m.id);
      if (!c) return;
      calls.delete(m.id);
      busy(-1);
      if (m.failure) {
        c.reject({ message: m.failure });
        return;
      }
      let answer;
      try {
        answer = JSON.parse(m.answer);
      } catch (err) {
        c.reject({ message: "munda's answer is not JSON: " + err.message });
        return;
      }
      if (answer && answer.error) c.reject(answer.error);
      else c.resolve(answer);
    };
    worker.onerror = (e) => {
      const err = new Error("munda's worker failed: " + (e.message || "could not load worker.js"));
      reject(err);
      for (const c of calls.values()) c.reject({ message: err.message });
      calls.clear();
    };
  });
  return workerReady;
}

let busyCount = 0;
function busy(delta) {
  busyCount += delta;
  $("busy").hidden = busyCount <= 0;
}

// call asks munda: it resolves with the answer, or rejects with
// {message, diagnostics}.
async function call(method, request) {
  await workerReady;
  return new Promise((resolve, reject) => {
    const id = nextCall++;
    calls.set(id, { resolve, reject });
    busy(1);
    worker.postMessage({ id, method, request });
  });
}

// ---------------------------------------------------------------------------
// Showing errors: on the page, always, with their positions.

function describeDiagnostic(d) {
  let at = "";
  if (d.range) {
    at = d.range.file || "";
    if (d.range.start && d.range.start.line) at += ":" + d.range.start.line + (d.range.start.column ? ":" + d.range.start.column : "");
    at += ": ";
  }
  let text = at + d.severity + ": " + (d.path ? d.path + ": " : "") + (d.rule ? "in " + d.rule + ": " : "") + d.summary;
  if (d.code) text += " [" + d.code + "]";
  return text;
}

function diagnosticList(diags, onPick) {
  const ul = document.createElement("ul");
  ul.className = "diagnostics";
  for (const d of diags || []) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.textContent = describeDiagnostic(d);
    if (d.detail) {
      const p = document.createElement("div");
      p.className = "detail";
      p.textContent = d.detail;
      li.appendChild(p);
    }
    if (onPick && d.range && d.range.start && d.range.start.line) {
      li.tabIndex = 0;
      li.classList.add("pickable");
      li.addEventListener("click", () => onPick(d));
    }
    ul.appendChild(li);
  }
  return ul;
}

function showError(err, title) {
  const box = $("error");
  box.replaceChildren();
  const h = document.createElement("strong");
  h.textContent = (title ? title + ": " : "") + ((err && err.message) || String(err));
  box.appendChild(h);
  if (err && err.diagnostics && err.diagnostics.length) box.appendChild(diagnosticList(err.diagnostics, pickDiagnostic));
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").replaceChildren();
}

window.addEventListener("error", (e) => showError({ message: "the page failed: " + e.message }));
window.addEventListener("unhandledrejection", (e) => showError(e.reason && e.reason.message ? e.reason : { message: String(e.reason) }, "the page failed"));

// A diagnostic in the state or the edited file selects its place there.
function pickDiagnostic(d) {
  const file = d.range.file;
  let area = null;
  if (file === "state") area = $("state");
  else if (file === editedDisplayPath()) area = $("editor");
  if (!area) return;
  const at = indexOf(area.value, d.range.start.line, d.range.start.column || 1);
  area.focus();
  area.setSelectionRange(at, Math.min(area.value.length, at + 1));
}

// indexOf turns a 1-based line and column (in characters) into an index.
function indexOf(text, line, column) {
  let i = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", i);
    if (nl < 0) return text.length;
    i = nl + 1;
  }
  return Math.min(text.length, i + Math.max(0, column - 1));
}

// ---------------------------------------------------------------------------
// The form.

let catalog = null;
const shipped = new Map(); // path → text of shipped files fetched so far

async function shippedText(path) {
  if (!shipped.has(path)) shipped.set(path, (await call("file", { path })).text);
  return shipped.get(path);
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function checkboxId(id) {
  return "house-" + id.replace(/[^a-z0-9_]/gi, "-");
}

function renderCatalog() {
  const rs = $("ruleset");
  rs.replaceChildren(...catalog.rulesets.map((r) => option(r.name, r.name + (r.title ? " — " + r.title : ""))));
  const houses = $("houses");
  houses.replaceChildren();
  for (const h of catalog.houses) {
    const box = document.createElement("fieldset");
    const legend = document.createElement("legend");
    const group = document.createElement("input");
    group.type = "checkbox";
    group.id = checkboxId(h.id);
    group.dataset.house = h.id;
    const gl = document.createElement("label");
    gl.append(group, " " + h.id + " — " + h.title);
    legend.appendChild(gl);
    box.appendChild(legend);
    for (const r of h.rules) {
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.id = checkboxId(r.id);
      cb.dataset.rule = r.id;
      cb.dataset.house = h.id;
      const l = document.createElement("label");
      l.className = "house-rule";
      l.append(cb, " " + r.title + (r.effects ? "" : " (text only)"));
      l.title = r.id + (r.source ? " [" + r.source + "]" : "");
      box.appendChild(l);
      cb.addEventListener("change", selectionChanged);
    }
    group.addEventListener("change", () => {
      for (const cb of box.querySelectorAll("input[data-rule]")) cb.checked = group.checked;
      selectionChanged();
    });
    houses.appendChild(box);
  }
  $("example").replaceChildren(option("", "(your own)"), ...catalog.states.map((s) => option(s, s)));
  $("max-paths").value = catalog.limits.default_max_paths;
  $("max-paths").max = catalog.limits.max_paths;
  $("samples").value = catalog.limits.default_samples;
  $("samples").max = catalog.limits.max_samples;
}

// toggles are the house checkboxes as --house takes them.
function toggles() {
  const out = [];
  for (const h of catalog.houses) {
    const on = $(checkboxId(h.id)).checked;
    if (on) out.push(h.id);
    for (const r of h.rules) {
      const ruleOn = $(checkboxId(r.id)).checked;
      if (on && !ruleOn) out.push("-" + r.id);
      if (!on && ruleOn) out.push(r.id);
    }
  }
  return out;
}

function setToggles(list) {
  for (const cb of $("houses").querySelectorAll("input")) cb.checked = false;
  for (const t of list || []) {
    const on = !t.startsWith("-");
    const id = t.replace(/^[-+]/, "");
    if (id.includes(".")) {
      const cb = $(checkboxId(id));
      if (cb) cb.checked = on;
    } else {
      const group = $(checkboxId(id));
      if (!group) continue;
      group.checked = on;
      for (const cb of $("houses").querySelectorAll('input[data-rule][data-house="' + id + '"]')) cb.checked = on;
    }
  }
}

// The edited file: its path ("" for a mod) and whether it differs from
// what is shipped.
let editing = { path: "", text: "" };

function editedDisplayPath() {
  return editing.path ? "rulesets/" + editing.path : "mod/mod.munda";
}

function editedFile() {
  const text = $("editor").value;
  if (editing.path === "") return text.trim() ? { text } : null;
  return text !== shipped.get(editing.path) ? { path: editing.path, text } : null;
}

function selection() {
  const sel = { ruleset: $("ruleset").value, houses: toggles() };
  const f = editedFile();
  if (f) sel.file = f;
  return sel;
}

function renderFiles() {
  const sel = $("file");
  const current = editing.path;
  const dirs = [$("ruleset").value, ...catalog.houses.map((h) => h.pack)];
  const opts = [option("", "(a new mod file, loaded on top)")];
  for (const d of [...new Set(dirs)]) for (const f of catalog.files[d] || []) opts.push(option(f, f));
  sel.replaceChildren(...opts);
  sel.value = current;
  if (sel.value !== current) sel.value = "";
}

async function openFile(path, text) {
  editing = { path, text: "" };
  if (path) {
    const original = await shippedText(path);
    $("editor").value = text ?? original;
  } else {
    $("editor").value = text ?? "";
  }
  $("file").value = path;
  editedNote();
}

function editedNote() {
  const f = editedFile();
  $("edited-note").textContent = f ? "edited: runs, odds and compare A use this text" : editing.path ? "as shipped" : "";
}

// procedures of the selection, refreshed when it changes.
let procedures = [];

async function loadProcedures() {
  let answer;
  try {
    answer = await call("load", selection());
  } catch (err) {
    showError(err, "cannot load the rules");
    return;
  }
  if (!answer.ok) {
    showError({ message: answer.name + ": the rules have errors", diagnostics: answer.diagnostics.filter((d) => d.severity === "error") });
    return;
  }
  procedures = answer.procedures;
  const sel = $("procedure");
  const current = sel.value || pending.procedure || "end-phase";
  sel.replaceChildren(...procedures.map((p) => option(p.name, p.name + (p.title ? " — " + p.title : "") + (p.action ? " (action)" : ""))));
  sel.value = current;
  if (sel.value !== current && procedures.length) sel.value = procedures[0].name;
  renderParams(pending.args);
  pending.args = null;
}

function renderParams(values) {
  const p = procedures.find((x) => x.name === $("procedure").value);
  const box = $("params");
  const old = currentArgs();
  box.replaceChildren();
  for (const prm of (p && p.params) || []) {
    const l = document.createElement("label");
    const input = document.createElement("input");
    input.id = "param-" + prm.name;
    input.dataset.param = prm.name;
    input.placeholder = prm.type + (prm.optional ? " (optional)" : "");
    if ($("ids-" + prm.type)) input.setAttribute("list", "ids-" + prm.type);
    input.value = (values && values[prm.name]) || old[prm.name] || "";
    input.addEventListener("change", saveLater);
    l.append(prm.name + " ", input);
    box.appendChild(l);
  }
}

// The state's gangs, models and weapons, offered to the parameters that
// take them; refreshed a moment after the state changes.
let idsTimer = 0;
function idsLater() {
  clearTimeout(idsTimer);
  idsTimer = setTimeout(async () => {
    let ids;
    try {
      ids = await call("ids", { state: $("state").value });
    } catch {
      return; // a state that does not read is said when it runs
    }
    for (const [type, list] of Object.entries(ids)) {
      const dl = $("ids-" + type);
      if (dl) dl.replaceChildren(...list.map((n) => option(n.id, n.name || n.id)));
    }
  }, 500);
}

function currentArgs() {
  const out = {};
  for (const input of $("params").querySelectorAll("input[data-param]")) if (input.value.trim()) out[input.dataset.param] = input.value.trim();
  return out;
}

function question() {
  const choose = $("choose").value.split(",").map((s) => s.trim()).filter(Boolean);
  return { state: $("state").value, procedure: $("procedure").value, args: currentArgs(), choose, allow_unknown: $("allow-unknown").checked };
}

function oddsSettings() {
  return {
    of: $("of").value.trim(),
    method: $("method").value,
    max_paths: Number($("max-paths").value) || 0,
    samples: Number($("samples").value) || 0,
    seed: Number($("seed").value) || 0,
  };
}

// parseStack reads a variant as `munda rules diff` takes it: BASE[+TOGGLES].
function parseStack(text) {
  const [base, rest] = text.trim().split(/\+(.*)/s);
  if (!base) throw { message: "variant B: write a stack of rules, BASE[+TOGGLES], e.g. core-2023+aa" };
  return { ruleset: base.trim(), houses: (rest || "").split(",").map((s) => s.trim()).filter(Boolean) };
}

// ---------------------------------------------------------------------------
// Actions.

// startAnswer clears what the last answer showed, before a new one.
function startAnswer() {
  clearError();
  $("runs").hidden = true;
  $("odds").replaceChildren();
  $("narration").textContent = "";
  $("new-state-box").hidden = true;
  saveLater();
}

async function run() {
  startAnswer();
  try {
    const a = await call("run", { ...selection(), ...question(), seed: Number($("seed").value) || 0 });
    $("narration").textContent = a.narration || "(the run narrated nothing)";
    const warned = a.warnings && a.warnings.length;
    if (a.error_in_run) showError(a.error_in_run, "the run stopped");
    else if (warned) showError({ message: "warnings about the state", diagnostics: a.warnings });
    if (a.error_in_run && warned) {
      const p = document.createElement("strong");
      p.textContent = "and warnings about the state:";
      $("error").append(p, diagnosticList(a.warnings, pickDiagnostic));
    }
    if (a.state) {
      $("new-state").textContent = a.state;
      $("new-state-box").hidden = false;
    }
  } catch (err) {
    showError(err, "cannot run");
  }
}

async function odds() {
  startAnswer();
  try {
    const a = await call("odds", { ...selection(), ...question(), ...oddsSettings() });
    renderOdds([a]);
  } catch (err) {
    showError(err, "cannot give the odds");
  }
}

async function compare() {
  startAnswer();
  try {
    const b = parseStack($("variant-b").value);
    const a = await call("compare", { a: selection(), b, ...question(), ...oddsSettings() });
    renderOdds([a.a, a.b]);
  } catch (err) {
    showError(err, "cannot compare");
  }
}

// compareRuns runs the procedure under A and B with the same seed and
// shows the two narrations side by side.
async function compareRuns() {
  startAnswer();
  const seed = Number($("seed").value) || 0;
  try {
    const b = parseStack($("variant-b").value);
    const a = await call("run", { ...selection(), ...question(), seed });
    const bAnswer = await call("run", { ...b, ...question(), seed });
    for (const [side, ans] of [["a", a], ["b", bAnswer]]) {
      $("run-" + side + "-title").textContent = side.toUpperCase() + " " + ans.rules + (ans.error_in_run ? " (stopped)" : "");
      $("narration-" + side).textContent = (ans.narration || "(the run narrated nothing)") + (ans.error_in_run ? "\n" + ans.error_in_run.message : "");
    }
    $("runs").hidden = false;
  } catch (err) {
    showError(err, "cannot compare the runs");
  }
}

function percent(p) {
  return (100 * p).toFixed(2) + "%";
}

function method(a) {
  return a.exact ? "exact, " + a.paths + " branches of the dice" : "Monte Carlo, " + a.samples + " runs (seed " + a.seed + "), 95% intervals";
}

// renderOdds draws one answer, or two side by side, as a bar chart: one
// row per outcome, a bar per variant, the likeliest first (numbers in
// order).
function renderOdds(answers) {
  const box = $("odds");
  box.replaceChildren();
  const head = document.createElement("div");
  answers.forEach((a, i) => {
    const p = document.createElement("p");
    p.className = "odds-method";
    p.textContent = (answers.length > 1 ? "ABCD"[i] + " " : "") + a.rules + ": " + method(a) + (a.note ? " — " + a.note : "");
    head.appendChild(p);
    if (a.warnings && a.warnings.length) head.appendChild(diagnosticList(a.warnings, pickDiagnostic));
  });
  box.appendChild(head);
  const keys = [];
  const seen = new Set();
  for (const a of answers) for (const o of a.outcomes) if (!seen.has(o.key)) seen.add(o.key), keys.push(o.key);
  const prob = (a, k) => {
    const o = a.outcomes.find((x) => x.key === k);
    return o ? o.probability : 0;
  };
  if (!answers[0].numeric) keys.sort((x, y) => Math.max(...answers.map((a) => prob(a, y))) - Math.max(...answers.map((a) => prob(a, x))));
  const shown = keys.slice(0, 30);
  const table = document.createElement("table");
  table.className = "chart";
  const tr = document.createElement("tr");
  for (const h of ["outcome", ...answers.map((a, i) => (answers.length > 1 ? "ABCD"[i] + " " : "") + a.rules), ...(answers.length > 1 ? ["B − A"] : [])]) {
    const th = document.createElement("th");
    th.textContent = h;
    tr.appendChild(th);
  }
  table.appendChild(tr);
  for (const k of shown) {
    const row = document.createElement("tr");
    const label = document.createElement("td");
    label.className = "outcome";
    label.textContent = k;
    row.appendChild(label);
    answers.forEach((a, i) => {
      const o = a.outcomes.find((x) => x.key === k);
      const td = document.createElement("td");
      td.className = "bar-cell";
      const bar = document.createElement("div");
      bar.className = "bar bar-" + i;
      bar.style.width = (o ? 100 * o.probability : 0).toFixed(2) + "%";
      const text = document.createElement("span");
      text.className = "p";
      text.textContent = o ? percent(o.probability) + (a.exact ? "  " + o.p : "  [" + percent(o.low) + ", " + percent(o.high) + "]") : "0%";
      td.append(bar, text);
      row.appendChild(td);
    });
    if (answers.length > 1) {
      const td = document.createElement("td");
      const d = prob(answers[1], k) - prob(answers[0], k);
      td.className = "diff";
      td.textContent = (d >= 0 ? "+" : "") + (100 * d).toFixed(2) + "%";
      row.appendChild(td);
    }
    table.appendChild(row);
  }
  box.appendChild(table);
  const rest = keys.length - shown.length + Math.max(...answers.map((a) => a.more || 0));
  if (rest > 0) {
    const p = document.createElement("p");
    p.textContent = "… " + rest + " more outcomes, less likely.";
    box.appendChild(p);
  }
  for (const [i, a] of answers.entries()) {
    if (a.mean === undefined || a.mean === null) continue;
    const p = document.createElement("p");
    p.className = "mean";
    p.textContent = "mean" + (answers.length > 1 ? " " + "ABCD"[i] : "") + ": " + (a.mean_exact ? a.mean_exact + " (" + a.mean.toFixed(4) + ")" : a.mean.toFixed(4));
    box.appendChild(p);
  }
}

// Live diagnostics of the edited file, a moment after typing stops. A
// check of a whole ruleset takes seconds in WebAssembly, so one runs at a
// time: edits made meanwhile are checked when it ends.
let checkTimer = 0;
let checking = false;
let checkAgain = false;

function checkLater() {
  editedNote();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkNow, 400);
}

async function checkNow() {
  if (checking) {
    checkAgain = true;
    return;
  }
  checking = true;
  const box = $("diagnostics");
  box.dataset.state = "checking";
  const note = document.createElement("p");
  note.className = "summary checking";
  note.textContent = "checking…";
  box.prepend(note);
  try {
    const a = await call("check", selection());
    box.replaceChildren();
    const p = document.createElement("p");
    p.className = a.errors ? "summary bad" : "summary good";
    p.textContent = a.errors || a.warnings ? a.name + ": " + a.errors + " error(s), " + a.warnings + " warning(s)" : a.name + ": no problems";
    box.append(p, diagnosticList(a.diagnostics, pickDiagnostic));
  } catch (err) {
    box.replaceChildren();
    const p = document.createElement("p");
    p.className = "summary bad";
    p.textContent = "cannot check: " + err.message;
    box.appendChild(p);
    if (err.diagnostics) box.appendChild(diagnosticList(err.diagnostics, pickDiagnostic));
  } finally {
    checking = false;
    box.dataset.state = "done";
  }
  saveLater();
  if (checkAgain) {
    checkAgain = false;
    await checkNow();
  }
}

async function selectionChanged() {
  renderFiles();
  saveLater();
  await loadProcedures();
  checkLater();
}

// ---------------------------------------------------------------------------
// The URL fragment: everything on the page, compressed, so a link shares it.

function settings() {
  const s = {
    r: $("ruleset").value, h: toggles(), x: $("example").value, p: $("procedure").value, a: currentArgs(),
    c: $("choose").value, d: $("seed").value, o: $("of").value, m: $("method").value,
    mp: $("max-paths").value, n: $("samples").value, b: $("variant-b").value, f: editing.path,
    u: $("allow-unknown").checked,
  };
  if (!s.x || $("state").value !== shipped.get(s.x)) s.s = $("state").value;
  const f = editedFile();
  if (f) s.t = f.text;
  return s;
}

async function encodeSettings(s) {
  const json = new TextEncoder().encode(JSON.stringify(s));
  if (typeof CompressionStream === "undefined") return "j=" + base64url(json);
  const packed = await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  return "z=" + base64url(new Uint8Array(packed));
}

async function decodeSettings(hash) {
  const m = /^#?(z|j)=(.*)$/s.exec(hash);
  if (!m) return null;
  let bytes = unbase64url(m[2]);
  if (m[1] === "z") bytes = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer());
  return JSON.parse(new TextDecoder().decode(bytes));
}

function base64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unbase64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

let saveTimer = 0;
let restoring = true;
function saveLater() {
  if (restoring) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(async () => {
    history.replaceState(null, "", "#" + (await encodeSettings(settings())));
  }, 300);
}

// pending holds what the link asks for until the procedures are known.
const pending = { procedure: null, args: null };

async function restore() {
  let s = null;
  try {
    s = await decodeSettings(location.hash);
  } catch (err) {
    showError({ message: "the link's settings cannot be read (" + err.message + "): starting afresh" });
  }
  s = s || {};
  if (s.r) $("ruleset").value = s.r;
  setToggles(s.h || []);
  const example = s.x ?? "core-2023/tests/states/end_phase.yaml";
  $("example").value = example;
  if (typeof s.s === "string") $("state").value = s.s;
  else if (example) $("state").value = await shippedText(example);
  pending.procedure = s.p || null;
  pending.args = s.a || null;
  if (s.c) $("choose").value = s.c;
  $("allow-unknown").checked = !!s.u;
  if (s.d) $("seed").value = s.d;
  if (s.o) $("of").value = s.o;
  if (s.m) $("method").value = s.m;
  if (s.mp) $("max-paths").value = s.mp;
  if (s.n) $("samples").value = s.n;
  $("variant-b").value = s.b ?? $("ruleset").value + "+aa";
  renderFiles();
  const file = s.f ?? "core-2023/end_phase.munda";
  await openFile((catalog.files[file.split("/")[0]] || Object.values(catalog.files).flat()).includes(file) ? file : "", s.t);
  await loadProcedures();
  idsLater();
  await checkNow();
}

// ---------------------------------------------------------------------------
// Start.

async function start() {
  const status = $("status");
  try {
    await startWorker();
    catalog = await call("catalog", null);
  } catch (err) {
    status.textContent = "munda did not start";
    status.dataset.state = "failed";
    showError(err.message ? err : { message: String(err) }, "munda did not start");
    return;
  }
  renderCatalog();
  await restore();
  restoring = false;
  status.textContent = "munda is ready";
  status.dataset.state = "ready";

  $("ruleset").addEventListener("change", selectionChanged);
  $("procedure").addEventListener("change", () => (renderParams(), saveLater()));
  for (const id of ["choose", "seed", "of", "method", "max-paths", "samples", "variant-b"]) $(id).addEventListener("change", saveLater);
  $("state").addEventListener("input", () => (saveLater(), idsLater()));
  $("example").addEventListener("change", async () => {
    if ($("example").value) $("state").value = await shippedText($("example").value);
    saveLater();
    idsLater();
  });
  $("upload").addEventListener("change", async () => {
    const f = $("upload").files[0];
    if (!f) return;
    if (f.size > catalog.limits.max_state_bytes) {
      showError({ message: f.name + " is " + f.size + " bytes; the playground takes states of at most " + catalog.limits.max_state_bytes });
      return;
    }
    $("state").value = await f.text();
    $("example").value = "";
    saveLater();
    idsLater();
  });
  $("import-yaktribe").addEventListener("change", async () => {
    const f = $("import-yaktribe").files[0];
    if (!f) return;
    clearError();
    try {
      const a = await call("import", { ...selection(), export: await f.text() });
      $("state").value = a.state;
      $("example").value = "";
      idsLater();
      if (a.warnings.length) {
        $("allow-unknown").checked = true;
        showError({ message: f.name + " imported, with warnings (names the rules lack are kept: unknown names are now accepted)", diagnostics: a.warnings });
      }
    } catch (err) {
      showError(err, "cannot import " + f.name);
    }
    saveLater();
  });
  $("allow-unknown").addEventListener("change", saveLater);
  $("run").addEventListener("click", run);
  $("odds-button").addEventListener("click", odds);
  $("compare-button").addEventListener("click", compare);
  $("compare-run").addEventListener("click", compareRuns);
  $("editor").addEventListener("input", checkLater);
  $("file").addEventListener("change", async () => {
    await openFile($("file").value);
    selectionChanged();
  });
  $("revert").addEventListener("click", async () => {
    await openFile(editing.path);
    selectionChanged();
  });
  $("use-new-state").addEventListener("click", () => {
    $("state").value = $("new-state").textContent;
    $("example").value = "";
    saveLater();
    idsLater();
  });
  $("share").addEventListener("click", async () => {
    history.replaceState(null, "", "#" + (await encodeSettings(settings())));
    try {
      await navigator.clipboard.writeText(location.href);
      $("share-note").textContent = "copied";
    } catch {
      $("share-note").textContent = "the link is in the address bar";
    }
  });
}

start();
