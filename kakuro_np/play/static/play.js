// kakuro_np play page: draws the state the server sends and posts moves.
// Every decision (validity, solutions, combinations, hints) is the server's;
// see CONTRACT.md next to this directory for the protocol.
"use strict";

const $ = (id) => document.getElementById(id);
// The server's secret, which it wrote into the page: every /api/ request sends it.
const TOKEN = document.querySelector('meta[name="kakuro-token"]').content;
const API_HEADERS = { "X-Kakuro-Token": TOKEN };

let state = null;          // the last state from the server
let selected = null;       // [r, c] or null
let queue = Promise.resolve();   // POSTs are sent one after another, in order
let combosSeq = 0;         // drops stale /api/combos answers
let pendingSum = null;     // the sum edit being sent (no double posts on Enter + change)
let clock = { elapsed: 0, running: false, since: 0 };  // the timer, ticked locally

// ---------------------------------------------------------------- requests

// One request; answers the JSON. A 400 answer with a state renders that
// state and shows its error; any other failure shows a message. Answers
// null when the request failed.
async function request(method, path, body) {
  const opts = { method, headers: { ...API_HEADERS } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res, data = null;
  try {
    res = await fetch(path, opts);
  } catch (err) {
    showError("cannot reach the server: " + err.message);
    return null;
  }
  try { data = await res.json(); } catch (err) { data = null; }
  if (!res.ok) {
    if (data && data.state) render(data.state);
    showError((data && data.error) || ("HTTP " + res.status + " for " + path));
    return null;
  }
  return data;
}

// POST a move or action (in order after the previous ones) and render the state.
function post(path, body) {
  queue = queue.then(async () => {
    const data = await request("POST", path, body || {});
    if (data) render(data);
    return data;
  });
  return queue;
}

function showError(text) {
  const m = $("message");
  m.textContent = text;
  m.className = "box message error";
}

// ---------------------------------------------------------------- drawing

const at = (a, r, c) => (a && a[r] ? a[r][c] : undefined);
const kindAt = (r, c) => at(state.kind, r, c);

function render(s) {
  const shapeChanged = !state || state.rows !== s.rows || state.cols !== s.cols;
  state = s;
  if (selected && (selected[0] >= s.rows || selected[1] >= s.cols)) selected = null;
  document.body.classList.toggle("play", s.mode === "play");
  document.body.classList.toggle("create", s.mode === "create");
  if (shapeChanged) { sizeGrid(); showSize(); }
  drawGrid();
  drawPanel();
  setClock(s.elapsed, s.running);
  refreshCombos();
  if (s.status && s.status.solutions === "pending") askAgainSoon();
}

// While the server is still counting the solutions, ask for the state again each
// second (in order with the moves, so an older state never overwrites a newer one).
let askAgain = null;
function askAgainSoon() {
  if (askAgain) return;
  askAgain = setTimeout(() => {
    askAgain = null;
    queue = queue.then(async () => {
      const data = await request("GET", "/api/state");
      if (data) render(data);
      return data;
    });
  }, 1000);
}

// Cell size: ~44px, smaller when the grid would not fit the window.
function sizeGrid() {
  if (!state) return;
  const grid = $("grid");
  const availW = window.innerWidth - 330 - 28 - 40 - 8;   // panel, gap, padding, border
  const availH = window.innerHeight - grid.getBoundingClientRect().top - 60;  // keys line below
  const size = Math.max(16, Math.min(44,
    Math.floor(availW / state.cols) - 1, Math.floor(availH / state.rows) - 1));
  document.documentElement.style.setProperty("--cell", size + "px");
  grid.style.gridTemplateColumns = "repeat(" + state.cols + ", var(--cell))";
}

// The New fields show the drawn grid's size (unless one is being typed in).
function showSize() {
  for (const [id, n] of [["new-rows", state.rows], ["new-cols", state.cols]]) {
    const input = $(id);
    if (document.activeElement !== input) input.value = String(n);
  }
}

// The blank cells of the runs through (r, c) (or headed by it, for a clue):
// drawn lightly. Computed from `kind` only.
function runCells(r, c) {
  const out = new Set();
  const walk = (r0, c0, dr, dc) => {
    for (let i = r0, j = c0; kindAt(i, j) === "blank"; i += dr, j += dc) out.add(i + "," + j);
  };
  if (kindAt(r, c) === "blank") {
    walk(r, c, 0, 1); walk(r, c, 0, -1); walk(r, c, 1, 0); walk(r, c, -1, 0);
  } else if (kindAt(r, c) === "clue") {
    const h = at(state.heads, r, c) || [false, false];
    if (h[0]) walk(r + 1, c, 1, 0);
    if (h[1]) walk(r, c + 1, 0, 1);
  }
  return out;
}

function drawGrid() {
  const s = state;
  const grid = $("grid");
  const key = (rc) => rc[0] + "," + rc[1];
  const wrong = new Set((s.wrong || []).map(key));
  const hinted = new Set(s.hint ? (s.hint.cells || []).map(key) : []);
  const run = selected ? runCells(selected[0], selected[1]) : new Set();
  const create = s.mode === "create";
  const frag = document.createDocumentFragment();
  for (let r = 0; r < s.rows; r++) {
    for (let c = 0; c < s.cols; c++) {
      const kind = s.kind[r][c];
      const el = document.createElement("div");
      const k = r + "," + c;
      el.className = "cell " + kind;
      el.dataset.r = r;
      el.dataset.c = c;
      if (selected && selected[0] === r && selected[1] === c) el.classList.add("selected");
      if (run.has(k)) el.classList.add("in-run");
      if (wrong.has(k)) el.classList.add("wrong");
      if (hinted.has(k)) el.classList.add("hinted");
      if (kind === "clue") drawClue(el, r, c, create);
      else if (kind === "blank") drawBlank(el, r, c);
      frag.appendChild(el);
    }
  }
  grid.replaceChildren(frag);
  grid.classList.toggle("solved", !!s.solved);
}

// A clue: its non-zero sums; in create mode its heads with no sum yet as "?".
function drawClue(el, r, c, create) {
  const heads = at(state.heads, r, c) || [false, false];
  const sums = [["down", at(state.down, r, c) || 0, heads[0]],
                ["across", at(state.across, r, c) || 0, heads[1]]];
  for (const [cls, sum, head] of sums) {
    if (!sum && !(create && head)) continue;
    const span = document.createElement("span");
    span.className = cls + (sum ? "" : " missing");
    span.textContent = sum ? String(sum) : "?";
    el.appendChild(span);
  }
  el.title = "clue (" + r + ", " + c + ")";
}

// A blank cell: span.digit (empty when none) and div.marks with nine slots.
function drawBlank(el, r, c) {
  const d = at(state.digits, r, c) || 0;
  const digit = document.createElement("span");
  digit.className = "digit";
  digit.textContent = d ? String(d) : "";
  el.appendChild(digit);
  const marks = document.createElement("div");
  marks.className = "marks";
  const have = new Set(at(state.marks, r, c) || []);
  for (let m = 1; m <= 9; m++) {
    const slot = document.createElement("span");
    slot.textContent = have.has(m) ? String(m) : "";
    marks.appendChild(slot);
  }
  el.appendChild(marks);
  if (d) el.classList.add("has-digit");
}

function drawPanel() {
  const s = state;
  $("name").textContent = s.name || "";
  document.title = "kakuro_np" + (s.name ? " \u2014 " + s.name : "");
  $("status").textContent = (s.status && s.status.text) || "";
  const m = $("message");
  m.textContent = s.message || "";
  m.className = "box message" + (s.solved && s.mode === "play" ? " solved" : "");
  $("undo").disabled = !s.can_undo;
  $("redo").disabled = !s.can_redo;
  $("pause").textContent = s.running || s.solved ? "Pause" : "Resume";
  $("pause").disabled = !!s.solved;
  drawHint(s.hint);
  drawSums();
}

function drawHint(h) {
  const el = $("hint-text");
  el.replaceChildren();
  if (!h) return;
  const t = document.createElement("div");
  t.className = "technique";
  t.textContent = h.technique || "hint";
  el.appendChild(t);
  const lines = [];
  if (h.reason) lines.push(h.reason);
  const cell = (x) => "(" + x[0] + ", " + x[1] + ")";
  for (const p of h.placed || []) lines.push("Places " + p[2] + " at " + cell(p) + ".");
  for (const p of h.removed || []) lines.push("Rules out " + (p[2] || []).join(", ") + " at " + cell(p) + ".");
  const body = document.createElement("div");
  body.textContent = lines.join("\n");
  el.appendChild(body);
}

// Create mode: the sum inputs follow the selected clue cell.
function drawSums() {
  const down = $("down-sum"), across = $("across-sum");
  const clue = selected && state.mode === "create" && kindAt(selected[0], selected[1]) === "clue";
  const heads = clue ? at(state.heads, selected[0], selected[1]) || [false, false] : [false, false];
  const cellKey = selected ? selected.join(",") : "";
  const fill = (input, on, value) => {
    input.disabled = !on;
    // keep what is being typed in a focused input while the same clue stays selected
    if (document.activeElement === input && input.dataset.cell === cellKey) return;
    input.dataset.cell = cellKey;
    input.value = on && value ? String(value) : "";
  };
  fill(down, heads[0], clue ? at(state.down, selected[0], selected[1]) : 0);
  fill(across, heads[1], clue ? at(state.across, selected[0], selected[1]) : 0);
}

// ---------------------------------------------------------------- combos

// Ask the server for the combinations of the entries through the selected
// blank cell (play mode only) and list them.
async function refreshCombos() {
  const box = $("combos");
  const seq = ++combosSeq;
  if (!state || state.mode !== "play" || !selected || kindAt(selected[0], selected[1]) !== "blank") {
    box.replaceChildren(note("Select a blank cell."));
    return;
  }
  let data = null;
  try {
    const res = await fetch("/api/combos?cell=" + selected[0] + "," + selected[1],
                            { headers: API_HEADERS });
    data = await res.json();
    if (!res.ok) data = null;
  } catch (err) { data = null; }
  if (seq !== combosSeq) return;       // a newer request is on its way
  if (!data) { box.replaceChildren(note("No combinations.")); return; }
  const frag = document.createDocumentFragment();
  for (const dir of ["across", "down"]) {
    const e = data[dir];
    if (!e) continue;
    const div = document.createElement("div");
    div.className = "entry " + dir;
    const head = document.createElement("div");
    head.className = "entry-head";
    head.textContent = dir + " " + e.total + " in " + e.length;
    div.appendChild(head);
    const combos = e.combos || [];
    if (!combos.length) div.appendChild(note("none"));
    combos.forEach((combo, i) => {
      const span = document.createElement("span");
      const fits = !e.fits || e.fits[i];
      span.className = "combo " + (fits ? "fits" : "nofit");
      span.textContent = combo.join("");
      span.title = combo.join(" + ") + (fits ? "" : " (does not fit the digits placed)");
      div.appendChild(span);
    });
    frag.appendChild(div);
  }
  box.replaceChildren(frag);
}

function note(text) {
  const span = document.createElement("span");
  span.className = "none";
  span.textContent = text;
  return span;
}

// ---------------------------------------------------------------- timer

function setClock(elapsed, running) {
  clock = { elapsed: elapsed || 0, running: !!running, since: performance.now() };
  drawClock();
}

function formatTime(sec) {
  sec = Math.max(0, Math.floor(sec));
  const h = Math.floor(sec / 3600), m = Math.floor(sec / 60) % 60, s = sec % 60;
  const ss = String(s).padStart(2, "0");
  return h ? h + ":" + String(m).padStart(2, "0") + ":" + ss : m + ":" + ss;
}

function drawClock() {
  let sec = clock.elapsed;
  if (clock.running) sec += (performance.now() - clock.since) / 1000;
  const t = $("timer");
  const text = formatTime(sec);
  if (t.textContent !== text) t.textContent = text;
  t.classList.toggle("paused", !clock.running);
  t.classList.toggle("solved", !!(state && state.solved));
}

// ---------------------------------------------------------------- selection

function select(r, c) {
  selected = [r, c];
  if (state) { drawGrid(); drawSums(); refreshCombos(); }
}

function moveSelection(dr, dc) {
  if (!state) return;
  if (!selected) { select(0, 0); return; }
  const r = Math.min(state.rows - 1, Math.max(0, selected[0] + dr));
  const c = Math.min(state.cols - 1, Math.max(0, selected[1] + dc));
  select(r, c);
}

function onCellClick(ev) {
  const el = ev.target.closest(".cell");
  if (!el || !state) return;
  const r = Number(el.dataset.r), c = Number(el.dataset.c);
  select(r, c);
  // create mode: a click toggles blank <-> block, except on a clue (sums go there)
  if (state.mode === "create" && kindAt(r, c) !== "clue") {
    post("/api/edit", { op: "toggle", cell: [r, c] });
  }
}

// ---------------------------------------------------------------- create mode sums

// Post the sums typed for the selected clue (only the directions it heads,
// an empty input is 0), unless they are what the state already has.
function applySums() {
  if (!state || state.mode !== "create" || !selected) return;
  const [r, c] = selected;
  if (kindAt(r, c) !== "clue") return;
  const body = { op: "sum", cell: [r, c] };
  let changed = false;
  for (const [key, id] of [["down", "down-sum"], ["across", "across-sum"]]) {
    const input = $(id);
    if (input.disabled) continue;
    const v = input.value.trim() === "" ? 0 : Number(input.value);
    body[key] = Number.isFinite(v) ? Math.trunc(v) : input.value;   // the server judges it
    if (body[key] !== (at(state[key], r, c) || 0)) changed = true;
  }
  const sig = JSON.stringify(body);
  if (!changed || sig === pendingSum) return;
  pendingSum = sig;
  post("/api/edit", body).finally(() => { pendingSum = null; });
}

function onSumKey(ev) {
  if (ev.key === "Enter") {
    ev.preventDefault();
    applySums();
    ev.target.blur();                 // arrows move the selection again
  } else if (ev.key === "Escape") {
    drawSums();                       // back to the state's values
    ev.target.blur();
  }
}

// ---------------------------------------------------------------- keys

function digitOf(code) {
  const m = /^(?:Digit|Numpad)([1-9])$/.exec(code || "");
  return m ? Number(m[1]) : 0;
}

function onKey(ev) {
  if (!state) return;
  const t = ev.target;
  const tag = t && t.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;   // not ours
  if (tag === "BUTTON" && (ev.key === "Enter" || ev.key === " ")) return;   // the button's
  const ctrl = ev.ctrlKey || ev.metaKey;
  const key = (ev.key || "").toLowerCase();

  if (ctrl && !ev.altKey) {
    if (key === "z" && !ev.shiftKey) { ev.preventDefault(); post("/api/undo"); }
    else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); post("/api/redo"); }
    return;
  }
  if (ev.altKey) return;

  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[ev.key]) {
    ev.preventDefault();
    moveSelection(moves[ev.key][0], moves[ev.key][1]);
    return;
  }
  if (!selected) return;
  const [r, c] = selected;
  const kind = kindAt(r, c);
  const d = digitOf(ev.code);

  if (state.mode === "create") {
    if (d && kind === "clue") {
      // digits on a clue go to its first sum input (Tab to the other)
      const input = !$("down-sum").disabled ? $("down-sum") : $("across-sum");
      if (input.disabled) return;
      ev.preventDefault();
      input.focus();
      input.value = String(d);
    } else if (key === "x" || ev.key === " ") {
      ev.preventDefault();
      post("/api/edit", { op: "toggle", cell: [r, c] });
    } else if ((ev.key === "Delete" || ev.key === "Backspace") && kind === "clue") {
      ev.preventDefault();
      const heads = at(state.heads, r, c) || [false, false];
      const body = { op: "sum", cell: [r, c] };
      if (heads[0] && at(state.down, r, c)) body.down = 0;
      if (heads[1] && at(state.across, r, c)) body.across = 0;
      if ("down" in body || "across" in body) post("/api/edit", body);
    }
    return;
  }

  // play mode: moves on blank cells
  if (kind !== "blank") return;
  if (d) {
    ev.preventDefault();
    post("/api/move", { op: ev.shiftKey ? "mark" : "digit", cell: [r, c], digit: d });
  } else if (ev.key === "Delete" || ev.key === "Backspace") {
    ev.preventDefault();
    post("/api/move", { op: "clear", cell: [r, c] });
  }
}

// ---------------------------------------------------------------- save / load

async function save() {
  const format = $("format").value || "pipe";
  await queue;                                  // after the moves sent so far
  const data = await request("POST", "/api/save", { format });
  if (!data) return;
  const blob = new Blob([data.text], { type: "text/plain" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = data.filename || ((state && state.name) || "puzzle.txt");
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function loadFile() {
  const input = $("load-file");
  const file = input.files && input.files[0];
  if (!file) return;
  const text = await file.text();
  input.value = "";                              // the same file can be loaded again
  selected = null;
  post("/api/load", { text, name: file.name });
}

async function loadFormats() {
  const data = await request("GET", "/api/formats");
  const sel = $("format");
  const formats = (data && data.formats) || ["pipe"];
  sel.replaceChildren(...formats.map((f) => {
    const o = document.createElement("option");
    o.value = f;
    o.textContent = f;
    return o;
  }));
  if (formats.includes("pipe")) sel.value = "pipe";
}

// ---------------------------------------------------------------- wiring

function button(id, fn) {
  $(id).addEventListener("click", (ev) => {
    ev.currentTarget.blur();                     // keys go back to the grid
    fn();
  });
}

function init() {
  $("grid").addEventListener("click", onCellClick);
  document.addEventListener("keydown", onKey);
  button("undo", () => post("/api/undo"));
  button("redo", () => post("/api/redo"));
  button("check", () => post("/api/check"));
  button("hint", () => post("/api/hint"));
  button("solve", () => post("/api/solve"));
  button("restart", () => post("/api/restart"));
  button("fill-marks", () => post("/api/marks"));
  button("pause", () => post("/api/pause", { running: !(state && state.running) }));
  button("to-create", () => post("/api/mode", { mode: "create" }));
  button("to-play", () => post("/api/mode", { mode: "play" }));
  button("fill-layout", () => post("/api/fill"));
  button("add-to-book", () => post("/api/book"));
  button("new", () => {
    selected = null;
    post("/api/new", { rows: Number($("new-rows").value), cols: Number($("new-cols").value) });
  });
  button("save", save);
  button("load", () => $("load-file").click());
  $("load-file").addEventListener("change", loadFile);
  for (const id of ["down-sum", "across-sum"]) {
    $(id).addEventListener("change", applySums);
    $(id).addEventListener("keydown", onSumKey);
  }
  window.addEventListener("resize", () => { if (state) sizeGrid(); });
  setInterval(drawClock, 250);                   // display only; the server keeps time

  loadFormats();
  request("GET", "/api/state").then((data) => { if (data) render(data); });
}

init();
