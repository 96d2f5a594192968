// The deltaview console: the catalog (GET /v1/catalog, polled), a view's
// rows kept live from its change stream (GET /v1/views/{name}/changes,
// server-sent events), its plan (GET /v1/views/{name}/explain) and a SQL
// box (POST /v1/sql). Plain DOM, no framework.
"use strict";

const $ = (sel) => document.querySelector(sel);
const MAX_ROWS = 1000; // rows drawn; the count shows them all

const state = {
  catalog: null,
  selected: null, // name of the view shown
  kind: null,
  stream: null, // EventSource
  columns: [],
  rows: new Map(), // JSON of a row → {row, n}
  ts: null,
  fresh: new Set(), // keys of rows that just came in
  planTimer: null,
};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("data-")) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function fmtInt(n) {
  return n == null ? "" : Number(n).toLocaleString("en-US");
}

function fmtBytes(n) {
  if (n == null) return "";
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  let v = Number(n);
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i === 0 ? v : v.toFixed(v < 10 ? 1 : 0)) + " " + units[i];
}

function fmtMS(n) {
  if (n == null) return "";
  return n < 1 ? (n * 1000).toFixed(0) + " µs" : n < 1000 ? n.toFixed(1) + " ms" : (n / 1000).toFixed(2) + " s";
}

function cell(v) {
  if (v === null || v === undefined) return el("td", { class: "null" }, "NULL");
  if (typeof v === "number") return el("td", { class: "num" }, String(v));
  if (typeof v === "boolean") return el("td", {}, v ? "true" : "false");
  return el("td", {}, String(v));
}

// --- catalog -------------------------------------------------------------

async function refreshCatalog() {
  try {
    const r = await fetch("/v1/catalog", { cache: "no-store" });
    if (!r.ok) throw new Error("HTTP " + r.status);
    state.catalog = await r.json();
    $("#conn").className = "dot ok";
    $("#conn-text").textContent = "connected";
    renderCatalog();
  } catch (e) {
    $("#conn").className = "dot bad";
    $("#conn-text").textContent = "server unreachable";
  }
}

function renderCatalog() {
  const { views, tables } = state.catalog;
  const vb = el("tbody");
  for (const v of views) {
    const name = el("td", {}, v.name);
    if (v.kind === "view") name.append(el("span", { class: "kind" }, "view"));
    if (v.over_budget) name.append(el("span", { class: "warn", title: "state over its memory budget" }, "over budget"));
    const tr = el("tr", { "data-name": v.name, class: v.name === state.selected ? "selected" : "" },
      name,
      el("td", { class: "num" }, fmtInt(v.rows)),
      el("td", { class: "num" }, fmtBytes(v.bytes)),
      el("td", { class: "num" }, fmtInt(v.steps)),
      el("td", { class: "num" }, fmtInt(v.refills)),
      el("td", { class: "num" }, fmtMS(v.cold_start_ms)));
    tr.addEventListener("click", () => selectView(v.name));
    vb.append(tr);
  }
  $("#views tbody").replaceWith(vb);
  $("#views-empty").hidden = views.length > 0;

  const tb = el("tbody");
  for (const t of tables) {
    const cols = t.columns.map((c) => c.name + " " + c.type).join(", ");
    const tr = el("tr", { "data-name": t.name },
      el("td", {}, t.name),
      el("td", { class: "num" }, fmtInt(t.rows)),
      el("td", { class: "num" }, fmtBytes(t.bytes)),
      el("td", { class: "cols" }, cols));
    tr.addEventListener("click", () => {
      $("#sql-text").value = "SELECT * FROM " + quoteIdent(t.name) + " LIMIT 100";
      runSQL();
    });
    tb.append(tr);
  }
  $("#tables tbody").replaceWith(tb);
  $("#tables-empty").hidden = tables.length > 0;

  if (state.selected && !views.some((v) => v.name === state.selected)) {
    setLive("down", "dropped");
  }
}

function quoteIdent(s) {
  return /^[a-z_][a-z0-9_]*$/.test(s) ? s : '"' + s.replace(/"/g, '""') + '"';
}

// --- a view's rows ---------------------------------------------------------

function setLive(cls, text) {
  const b = $("#live");
  b.className = "badge " + cls;
  b.textContent = text;
}

function selectView(name) {
  if (state.stream) { state.stream.close(); state.stream = null; }
  const v = state.catalog && state.catalog.views.find((x) => x.name === name);
  state.selected = name;
  state.kind = v ? v.kind : "materialized view";
  state.rows = new Map();
  state.columns = [];
  state.ts = null;
  if (location.hash !== "#view=" + encodeURIComponent(name)) {
    history.replaceState(null, "", "#view=" + encodeURIComponent(name));
  }
  $("#detail-empty").hidden = true;
  $("#detail").hidden = false;
  $("#view-name").textContent = name;
  $("#view-def").textContent = v && v.definition ? v.definition : "";
  $("#view-ts").textContent = "";
  document.querySelectorAll("#views tbody tr").forEach((tr) =>
    tr.classList.toggle("selected", tr.dataset.name === name));
  renderRows();
  if (state.kind === "view") {
    // A plain view is not maintained: it is read once, with no stream.
    setLive("", "not maintained");
    loadPlainView(name);
    $("#plan tbody").replaceChildren();
    return;
  }
  setLive("", "connecting");
  const es = new EventSource("/v1/views/" + encodeURIComponent(name) + "/changes");
  state.stream = es;
  es.addEventListener("snapshot", (ev) => {
    const d = JSON.parse(ev.data);
    state.columns = d.columns;
    state.rows = new Map();
    state.fresh = new Set();
    apply(d.changes, false);
    state.ts = d.ts;
    setLive("live", "live");
    renderRows();
  });
  es.addEventListener("resume", () => setLive("live", "live"));
  es.addEventListener("delta", (ev) => {
    const d = JSON.parse(ev.data);
    state.fresh = new Set();
    apply(d.changes, true);
    state.ts = d.ts;
    renderRows();
    schedulePlan();
  });
  es.addEventListener("error", (ev) => {
    if (ev.data) {
      const e = JSON.parse(ev.data);
      setLive("down", e.code + ": " + e.message);
      es.close();
    } else if (es.readyState !== EventSource.CLOSED) {
      setLive("down", "reconnecting");
    }
  });
  es.onopen = () => setLive("live", "live");
  loadPlan();
}

async function loadPlainView(name) {
  const out = await postSQL("SELECT * FROM " + quoteIdent(name));
  if (out.results && out.results[0] && out.results[0].columns) {
    state.columns = out.results[0].columns;
    apply(out.results[0].rows.map((row) => ({ row, diff: 1 })), false);
    renderRows();
  }
}

function apply(changes, mark) {
  for (const { row, diff } of changes) {
    const key = JSON.stringify(row);
    const cur = state.rows.get(key);
    const n = (cur ? cur.n : 0) + diff;
    if (n <= 0) state.rows.delete(key);
    else state.rows.set(key, { row, n });
    if (mark && diff > 0) state.fresh.add(key);
  }
}

function compareRows(a, b) {
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

function renderRows() {
  const head = el("tr");
  for (const c of state.columns) head.append(el("th", { title: c.type }, c.name));
  const dup = [...state.rows.values()].some((r) => r.n > 1);
  if (dup) head.append(el("th", { class: "num", title: "copies of the row" }, "×"));
  $("#rows thead").replaceChildren(head);

  const entries = [...state.rows.entries()].sort((a, b) => compareRows(a[1].row, b[1].row));
  const body = el("tbody");
  let total = 0;
  for (const [key, { row, n }] of entries) {
    total += n;
    if (body.childElementCount >= MAX_ROWS) continue;
    const tr = el("tr", { class: state.fresh.has(key) ? "flash-in" : "" });
    for (const v of row) tr.append(cell(v));
    if (dup) tr.append(el("td", { class: "num" }, String(n)));
    body.append(tr);
  }
  $("#rows tbody").replaceWith(body);
  $("#row-count").textContent = state.columns.length ? fmtInt(total) : "";
  const more = $("#rows-more");
  more.hidden = entries.length <= MAX_ROWS;
  more.textContent = "Showing the first " + fmtInt(MAX_ROWS) + " of " + fmtInt(entries.length) + " distinct rows.";
  $("#view-ts").textContent = state.ts != null ? "at ts " + state.ts : "";
}

// --- plan -----------------------------------------------------------------

function schedulePlan() {
  if (state.planTimer) return;
  state.planTimer = setTimeout(() => { state.planTimer = null; loadPlan(); }, 500);
}

async function loadPlan() {
  const name = state.selected;
  if (!name || state.kind === "view") return;
  try {
    const r = await fetch("/v1/views/" + encodeURIComponent(name) + "/explain", { cache: "no-store" });
    const doc = await r.json();
    if (name !== state.selected || !doc.operators) return;
    const body = el("tbody");
    for (const op of [...doc.operators].reverse()) {
      const what = el("td", { class: "wrap" }, el("strong", {}, op.kind), op.detail ? " " + op.detail : "");
      body.append(el("tr", {},
        el("td", { class: "num" }, String(op.id)),
        what,
        el("td", { class: "wrap muted" }, op.state || ""),
        el("td", { class: "num" }, fmtInt(op.rows)),
        el("td", { class: "num" }, fmtBytes(op.bytes)),
        el("td", { class: "num" }, fmtInt(op.steps)),
        el("td", { class: "num" }, fmtInt(op.refills)),
        el("td", {}, (op.inputs || []).join(", "))));
    }
    $("#plan tbody").replaceWith(body);
  } catch (e) {
    // The view went away: the catalog says so.
  }
}

// --- SQL ------------------------------------------------------------------

async function postSQL(text) {
  const r = await fetch("/v1/sql", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sql: text }),
  });
  return r.json();
}

async function runSQL() {
  const text = $("#sql-text").value;
  if (!text.trim()) return;
  const btn = $("#sql-run");
  btn.disabled = true;
  const out = $("#sql-out");
  try {
    const res = await postSQL(text);
    out.replaceChildren();
    for (const r of res.results || []) {
      const box = el("div", { class: "result" });
      for (const n of r.notices || []) box.append(el("div", { class: "muted" }, "NOTICE: " + n));
      if (r.columns) {
        const t = el("table", { class: "grid data" });
        const h = el("tr");
        for (const c of r.columns) h.append(el("th", { title: c.type }, c.name));
        const b = el("tbody");
        for (const row of r.rows.slice(0, MAX_ROWS)) {
          const tr = el("tr");
          for (const v of row) tr.append(cell(v));
          b.append(tr);
        }
        t.append(el("thead", {}, h), b);
        box.append(el("div", { class: "scroll" }, t));
      }
      box.append(el("div", { class: "tag" }, r.tag || ""));
      out.append(box);
    }
    if (res.error) {
      const e = res.error;
      const msg = [e.message, e.position ? " (at character " + e.position + ")" : "",
        e.detail ? "\nDETAIL: " + e.detail : "", e.hint ? "\nHINT: " + e.hint : ""].join("");
      out.append(el("div", { class: "error" }, el("span", { class: "code" }, e.code), msg));
    }
  } catch (e) {
    out.replaceChildren(el("div", { class: "error" }, String(e)));
  } finally {
    btn.disabled = false;
  }
  refreshCatalog();
}

// --- start ------------------------------------------------------------------

function showTab(name) {
  document.querySelectorAll(".tab").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  $("#tab-rows").hidden = name !== "rows";
  $("#tab-plan").hidden = name !== "plan";
  if (name === "plan") loadPlan();
}

document.addEventListener("DOMContentLoaded", async () => {
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("#sql-form").addEventListener("submit", (e) => { e.preventDefault(); runSQL(); });
  $("#sql-text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); runSQL(); }
  });
  await refreshCatalog();
  setInterval(refreshCatalog, 2000);
  const m = location.hash.match(/^#view=(.+)$/);
  if (m) selectView(decodeURIComponent(m[1]));
  else if (state.catalog && state.catalog.views.length) selectView(state.catalog.views[0].name);
});
