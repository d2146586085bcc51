// numba_words crossword board widget (anywidget ESM, plain JavaScript, no build step).
// State lives in the Python model; this view renders it and writes back what the user types and clicks.

const COLS = "ABCDEFGHIJKLMNO";
const PREMIUM = { l: "dl", L: "tl", w: "dw", W: "tw", "*": "st" };
const LABEL = { l: "2L", L: "3L", w: "2W", W: "3W", "*": "\u2605" };

function fmt(x, d = 1) { return x === null || x === undefined ? "" : Number(x).toFixed(d); }

function render({ model, el }) {
  el.classList.add("nw-widget", "nw-scrabble");
  let preview = null;                 // squares of the hovered play (view-only state)
  let cursor = null;                  // [row, col, down] of the square being edited
  const sq = [];

  // ---------------------------------------------------------------- the board
  const boardEl = h("div", { class: "nw-xboard", tabindex: "0", "data-role": "board" });
  for (let r = 0; r < 15; r++) {
    for (let c = 0; c < 15; c++) {
      const s = h("div", { class: "nw-sq", "data-r": r, "data-c": c });
      s.addEventListener("click", () => {
        if (cursor && cursor[0] === r && cursor[1] === c) cursor[2] = !cursor[2];
        else cursor = [r, c, false];
        boardEl.focus();
        drawBoard();
      });
      sq.push(s);
      boardEl.append(s);
    }
  }
  boardEl.addEventListener("keydown", (ev) => {
    if (!cursor) return;
    const [r, c, down] = cursor;
    const step = (k) => { cursor = down ? [Math.min(14, r + k), c, down] : [r, Math.min(14, c + k), down]; };
    if (/^[a-zA-Z]$/.test(ev.key)) {
      // a letter: a tile; with Shift, a blank playing that letter (lower case)
      const letter = ev.shiftKey ? ev.key.toLowerCase() : ev.key.toUpperCase();
      model.send({ type: "square", row: r, col: c, letter });
      step(1);
    } else if (ev.key === "Backspace" || ev.key === "Delete" || ev.key === " " || ev.key === ".") {
      model.send({ type: "square", row: r, col: c, letter: "" });
      if (ev.key === "Backspace") cursor = down ? [Math.max(0, r - 1), c, down] : [r, Math.max(0, c - 1), down];
      else step(1);
    } else if (ev.key === "ArrowRight") cursor = [r, Math.min(14, c + 1), false];
    else if (ev.key === "ArrowLeft") cursor = [r, Math.max(0, c - 1), false];
    else if (ev.key === "ArrowDown") cursor = [Math.min(14, r + 1), c, true];
    else if (ev.key === "ArrowUp") cursor = [Math.max(0, r - 1), c, true];
    else if (ev.key === "Escape") cursor = null;
    else return;
    ev.preventDefault();
    drawBoard();
  });

  function drawBoard() {
    const rows = model.get("board"), layout = model.get("premium"), values = model.get("values");
    const plays = model.get("plays"), si = model.get("selected");
    const over = new Map();
    const selSquares = si >= 0 && si < plays.length ? plays[si].squares : null;
    for (const [list, cls] of [[preview, "preview"], [selSquares, "sel"]]) {
      if (list) for (const [r, c, ch] of list) over.set(r * 15 + c, [ch, cls]);
    }
    for (let r = 0; r < 15; r++) {
      for (let c = 0; c < 15; c++) {
        const s = sq[r * 15 + c];
        const p = layout[r] ? layout[r][c] : ".";
        let ch = rows[r] ? rows[r][c] : ".";
        let extra = "";
        const o = over.get(r * 15 + c);
        if (o && ch === ".") { ch = o[0]; extra = " " + o[1]; }
        const cur = cursor && cursor[0] === r && cursor[1] === c ? " cursor" : "";
        s.className = "nw-sq" + (PREMIUM[p] && ch === "." ? " " + PREMIUM[p] : "") + extra + cur;
        s.replaceChildren();
        if (ch !== ".") {
          const blank = ch === ch.toLowerCase();
          const t = h("div", { class: "nw-tile" + (blank ? " blank" : "") }, ch.toUpperCase());
          if (!blank) t.append(h("sub", { text: String(values[ch] ?? "") }));
          s.append(t);
        } else if (LABEL[p]) {
          s.textContent = LABEL[p];
        }
      }
    }
  }

  // ---------------------------------------------------------------- rack and play list
  const rackIn = h("input", { class: "nw-rack", "data-role": "rack", placeholder: "rack", maxlength: "7",
    spellcheck: "false", autocomplete: "off" });
  rackIn.value = model.get("rack");
  // one rack in flight at a time, the latest typed sent next: fast typing never queues stale searches in the
  // kernel, and the last key's list comes as soon as the kernel is free (no keystroke is lost: the box is sent)
  let inflight = null, queued = null, sentAt = 0;
  const sendRack = (v) => {
    if (inflight !== null && performance.now() - sentAt < 3000) { queued = v; return; }
    inflight = v; queued = null; sentAt = performance.now();
    model.set("rack", v); model.save_changes();
  };
  model.on("change:plays_for", () => {
    if (model.get("plays_for") !== inflight) return;
    inflight = null;
    if (queued !== null && queued !== model.get("plays_for")) sendRack(queued);
    queued = null;
  });
  rackIn.addEventListener("input", () => sendRack(rackIn.value));
  const bySel = h("select", { "data-role": "by" }, h("option", { value: "score", text: "by score" }),
    h("option", { value: "equity", text: "by equity" }));
  bySel.value = model.get("by");
  bySel.addEventListener("change", () => { model.set("by", bySel.value); model.save_changes(); });
  const info = h("span", { class: "nw-small", "data-role": "info" });
  const tbody = h("tbody", { "data-role": "plays" });
  const table = h("table", { class: "nw-table" },
    h("thead", {}, h("tr", {}, h("th", { text: "play" }), h("th", { class: "num", text: "score" }),
      h("th", { class: "num", text: "equity" }), h("th", { text: "leave" }))), tbody);

  function drawPlays() {
    const plays = model.get("plays"), si = model.get("selected");
    const rows = plays.map((p, i) => {
      const tr = h("tr", { "data-index": i, class: i === si ? "nw-selected" : "" },
        h("td", { text: p.notation }), h("td", { class: "num", text: String(p.score) }),
        h("td", { class: "num", text: fmt(p.equity) }), h("td", { text: p.leave }));
      tr.addEventListener("mouseenter", () => { preview = p.squares; drawBoard(); });
      tr.addEventListener("mouseleave", () => { preview = null; drawBoard(); });
      tr.addEventListener("click", () => { model.set("selected", i); model.save_changes(); });
      tr.addEventListener("dblclick", () => model.send({ type: "play", index: i }));
      return tr;
    });
    tbody.replaceChildren(...rows);
    tbody.dataset.for = model.get("plays_for");
    info.textContent = `${model.get("n_legal")} legal plays, ${fmt(model.get("compute_ms"), 1)} ms; bag ${model.get("bag")}`
      + `; scores ${model.get("scores").join("-")}`;
  }

  // ---------------------------------------------------------------- buttons, simulation, endgame
  const btn = (label, role, fn) => h("button", { "data-role": role, onclick: fn, text: label });
  const playBtn = btn("play it", "play", () => model.send({ type: "play", index: model.get("selected") }));
  const undoBtn = btn("undo", "undo", () => model.send({ type: "undo" }));
  const simBtn = btn("simulate", "simulate", () => model.send({ type: "simulate" }));
  const stopBtn = btn("stop", "stop", () => model.send({ type: "stop" }));
  const egBtn = btn("endgame", "endgame", () => model.send({ type: "endgame" }));
  const simBody = h("tbody", { "data-role": "sim" });
  const simInfo = h("div", { class: "nw-small", "data-role": "sim-info" });
  const egOut = h("div", { class: "nw-small", "data-role": "endgame" });
  const simTable = h("table", { class: "nw-table" }, h("thead", {}, h("tr", {}, h("th", { text: "candidate" }),
    h("th", { class: "num", text: "eq" }), h("th", { class: "num", text: "sim" }), h("th", { class: "num", text: "\u00b1" }),
    h("th", { class: "num", text: "n" }))), simBody);

  function drawButtons() {
    const busy = model.get("sim_running") || model.get("endgame_running");
    playBtn.disabled = !(model.get("selected") >= 0);
    simBtn.disabled = busy || model.get("plays").length === 0;
    stopBtn.disabled = !model.get("sim_running");
    egBtn.disabled = busy || !model.get("endgame_ready");
  }
  function drawSim() {
    simBody.replaceChildren(...model.get("sim_rows").map((r) => h("tr", { class: r.dropped ? "nw-dropped" : "" },
      h("td", { text: r.notation }), h("td", { class: "num", text: fmt(r.equity) }),
      h("td", { class: "num", text: fmt(r.mean, 2) }), h("td", { class: "num", text: fmt(r.stderr, 2) }),
      h("td", { class: "num", text: String(r.iterations) }))));
    const n = model.get("sim_iterations");
    simInfo.textContent = n ? `${n} iterations${model.get("sim_running") ? " (running)" : ""}` : "";
  }
  function drawEndgame() {
    const r = model.get("endgame_result");
    egOut.textContent = r && r.best ? `value ${r.value > 0 ? "+" : ""}${r.value}: ${r.pv.join(" / ")}` : "";
  }

  // ---------------------------------------------------------------- CGP and the slot finder
  const cgpText = h("textarea", { rows: "3", cols: "44", "data-role": "cgp", spellcheck: "false" });
  cgpText.value = model.get("cgp");
  const loadBtn = btn("load CGP", "load", () => { model.set("cgp", cgpText.value.trim()); model.save_changes(); });
  const saveBtn = btn("save CGP", "save", () => {
    cgpText.value = model.get("cgp");
    const a = h("a", { href: "data:text/plain;charset=utf-8," + encodeURIComponent(model.get("cgp") + "\n"),
      download: "position.cgp" });
    a.click();
  });
  const slotPat = h("input", { "data-role": "slot-pattern", placeholder: "pattern, e.g. .A[EI].S", size: "16" });
  const slotRack = h("input", { "data-role": "slot-rack", placeholder: "rack (optional)", size: "9" });
  const slotOut = h("div", { class: "nw-list nw-small", "data-role": "slot-words" });
  const slotSend = () => { model.set("slot_pattern", slotPat.value); model.set("slot_rack", slotRack.value);
    model.save_changes(); };
  slotPat.addEventListener("input", slotSend);
  slotRack.addEventListener("input", slotSend);
  function drawSlot() {
    const w = model.get("slot_words"), n = model.get("slot_count");
    slotOut.textContent = n ? `${n} words: ` + w.join(" ") + (n > w.length ? " ..." : "") : "";
  }

  const err = h("div", { class: "nw-error", "data-role": "error" });
  const status = h("div", { class: "nw-status", "data-role": "status" });
  const panel = h("div", { class: "nw-panel" },
    h("div", { class: "nw-row" }, rackIn, bySel), info,
    h("div", { class: "nw-list" }, table),
    h("div", { class: "nw-row" }, playBtn, undoBtn, simBtn, stopBtn, egBtn),
    err, status, simInfo, simTable, egOut,
    h("details", { class: "nw-box" }, h("summary", { text: "position (CGP)" }), cgpText,
      h("div", { class: "nw-row" }, loadBtn, saveBtn)),
    h("details", { class: "nw-box", open: "" }, h("summary", { text: "slot finder" }),
      h("div", { class: "nw-row" }, slotPat, slotRack), slotOut));
  el.replaceChildren(boardEl, panel);

  const on = (names, fn) => onChange(model, names, fn);
  on("board premium selected", drawBoard);
  on("plays plays_for selected n_legal compute_ms bag scores", () => { drawPlays(); drawBoard(); drawButtons(); });
  on("sim_rows sim_iterations sim_running", () => { drawSim(); drawButtons(); });
  on("endgame_result endgame_running endgame_ready", () => { drawEndgame(); drawButtons(); });
  on("slot_words slot_count", drawSlot);
  on("error", () => { err.textContent = model.get("error"); });
  on("status", () => { status.textContent = model.get("status"); });
  on("cgp", () => { cgpText.value = model.get("cgp"); });
  on("rack", () => { if (rackIn.value !== model.get("rack")) rackIn.value = model.get("rack"); });
  on("by", () => { bySel.value = model.get("by"); });
  drawBoard(); drawPlays(); drawButtons(); drawSim(); drawEndgame(); drawSlot();
  err.textContent = model.get("error");
  status.textContent = model.get("status");
}

export default { render };
