// numba_words international draughts board widget (anywidget ESM, plain JavaScript, no build step).
// The legal moves come from the Python model with each position; a click on a piece highlights its moves at
// once, a click on a target sends the move to Python, which answers with the new position.

// square 1..50 -> [row, col], row 0 at the top (Black's side)
function rc(s) { const r = Math.floor((s - 1) / 5); return [r, 2 * ((s - 1) % 5) + (r % 2 === 0 ? 1 : 0)]; }

function render({ model, el }) {
  el.classList.add("nw-widget", "nw-draughts");
  let choice = [];                      // moves sharing the clicked from/to (different captures): pick one
  const cells = new Map();              // square -> element
  const boardEl = h("div", { class: "nw-dboard", "data-role": "board" });
  const evalBar = h("div", { class: "nw-evalbar", "data-role": "evalbar" }, h("div"));

  function layout() {
    const flip = model.get("flipped");
    boardEl.replaceChildren();
    cells.clear();
    for (let r = 0; r < 10; r++) {
      for (let c = 0; c < 10; c++) {
        const rr = flip ? 9 - r : r, cc = flip ? 9 - c : c;
        const dark = (rr + cc) % 2 === 1;
        const e = h("div", { class: "nw-dsq " + (dark ? "dark" : "light") });
        if (dark) {
          const s = rr * 5 + Math.floor(cc / 2) + 1;
          e.dataset.sq = s;
          e.addEventListener("click", () => clicked(s));
          cells.set(s, e);
        }
        boardEl.append(e);
      }
    }
    draw();
  }

  function clicked(s) {
    const sel = model.get("selected"), moves = model.get("moves");
    const hits = moves.map((m, i) => [m, i]).filter(([m]) => m.from === sel && m.to === s);
    if (sel && hits.length === 1) { model.send({ type: "move", index: hits[0][1] }); choice = []; return; }
    if (sel && hits.length > 1) { choice = hits; drawChoice(); return; }
    choice = [];
    const mine = moves.some((m) => m.from === s);
    model.set("selected", mine && s !== sel ? s : 0);
    model.save_changes();
    draw();
    drawChoice();
  }

  function draw() {
    const pieces = model.get("pieces"), sel = model.get("selected"), moves = model.get("moves");
    const last = new Set(model.get("last"));
    const from = moves.filter((m) => m.from === sel);
    const targets = new Set(from.map((m) => m.to));
    const path = new Set(from.flatMap((m) => m.path.slice(1, -1)));
    const caps = new Set(from.flatMap((m) => m.captured));
    for (const [s, e] of cells) {
      let cls = "nw-dsq dark";
      if (s === sel) cls += " from";
      if (targets.has(s)) cls += " target";
      else if (path.has(s)) cls += " path";
      if (caps.has(s)) cls += " captured";
      if (last.has(s)) cls += " last";
      e.className = cls;
      e.replaceChildren(h("span", { class: "nw-num", text: String(s) }));
      const p = pieces[s - 1];
      if (p) e.append(h("div", { class: "nw-piece " + p.toLowerCase(), "data-piece": p }, p === p.toUpperCase() ? "\u265b" : ""));
    }
    const share = model.get("eval_white");
    evalBar.firstChild.style.height = `${Math.round(100 * share)}%`;
    evalBar.style.display = model.get("engine_available") ? "" : "none";
  }

  // ---------------------------------------------------------------- side panel
  const btn = (label, role, fn) => h("button", { "data-role": role, onclick: fn, text: label });
  const turnEl = h("div", { "data-role": "turn", class: "nw-status" });
  const chooser = h("div", { class: "nw-row", "data-role": "choice" });
  const undoB = btn("undo", "undo", () => model.send({ type: "undo" }));
  const redoB = btn("redo", "redo", () => model.send({ type: "redo" }));
  const flipB = btn("flip", "flip", () => { model.set("flipped", !model.get("flipped")); model.save_changes(); layout(); });
  const depthIn = h("input", { type: "number", min: "1", max: "12", value: String(model.get("perft_depth")),
    style: "width: 3.5em", "data-role": "perft-depth" });
  depthIn.addEventListener("change", () => { model.set("perft_depth", parseInt(depthIn.value, 10) || 1); model.save_changes(); });
  const perftB = btn("perft / divide", "perft", () => model.send({ type: "perft" }));
  const perftOut = h("div", { class: "nw-list nw-small", "data-role": "perft-out" });
  const engB = btn("engine move", "engine", () => model.send({ type: "engine" }));
  const stopB = btn("stop", "stop", () => model.send({ type: "stop" }));
  const sideSel = h("select", { "data-role": "engine-side" }, h("option", { value: "", text: "two players" }),
    h("option", { value: "B", text: "engine plays Black" }), h("option", { value: "W", text: "engine plays White" }));
  sideSel.addEventListener("change", () => { model.set("engine_side", sideSel.value); model.save_changes(); });
  const timeIn = h("input", { type: "number", min: "0.05", step: "0.1", value: String(model.get("engine_time")),
    style: "width: 4em", "data-role": "engine-time" });
  timeIn.addEventListener("change", () => { model.set("engine_time", parseFloat(timeIn.value) || 1); model.save_changes(); });
  const evalOut = h("div", { class: "nw-small", "data-role": "eval" });
  const engineBox = h("div", { class: "nw-panel" }, h("div", { class: "nw-row" }, engB, stopB, sideSel, timeIn,
    h("span", { class: "nw-small", text: "s/move" })), evalOut);
  const fenIn = h("input", { "data-role": "fen", size: "40", spellcheck: "false" });
  const loadB = btn("load FEN", "load", () => { model.set("fen", fenIn.value.trim()); model.save_changes(); });
  const histOut = h("div", { class: "nw-small nw-list", "data-role": "history" });
  const err = h("div", { class: "nw-error", "data-role": "error" });
  const status = h("div", { class: "nw-status", "data-role": "status" });

  function drawChoice() {
    chooser.replaceChildren(...choice.map(([m, i]) => btn(m.path.join("x"), "choice-" + i, () => {
      model.send({ type: "move", index: i }); choice = []; drawChoice(); })));
  }
  function drawInfo() {
    const out = model.get("outcome");
    turnEl.textContent = out ? `game over: ${out}` : `${model.get("turn") === "W" ? "White" : "Black"} to move, `
      + `${model.get("moves").length} legal moves`;
    undoB.disabled = !model.get("can_undo");
    redoB.disabled = !model.get("can_redo");
    fenIn.value = model.get("fen");
    const hist = model.get("history");
    histOut.textContent = hist.map((m, i) => (i % 2 === 0 ? `${i / 2 + 1}. ` : "") + m).join(" ");
    const busy = model.get("engine_running");
    engB.disabled = busy || !!out;
    stopB.disabled = !busy;
    engineBox.style.display = model.get("engine_available") ? "" : "none";
    sideSel.value = model.get("engine_side");
  }
  function drawPerft() {
    const rows = model.get("perft_result"), total = model.get("perft_total");
    perftOut.textContent = model.get("perft_running") ? "counting..." :
      total >= 0 ? rows.map(([m, n]) => `${m}: ${n}`).join("  ") + `  |  Nodes searched: ${total}` : "";
    perftB.disabled = model.get("perft_running");
  }
  function drawEval() {
    evalOut.textContent = model.get("eval_text") ? `${model.get("eval_text")}  pv ${model.get("eval_pv")}` : "";
    draw();
  }

  const panel = h("div", { class: "nw-panel" }, turnEl, chooser,
    h("div", { class: "nw-row" }, undoB, redoB, flipB), engineBox,
    h("div", { class: "nw-row" }, h("span", { text: "depth" }), depthIn, perftB), perftOut,
    h("div", { class: "nw-row" }, fenIn, loadB), histOut, err, status);
  el.replaceChildren(h("div", { class: "nw-row", style: "align-items: flex-start" }, evalBar, boardEl), panel);

  const on = (names, fn) => onChange(model, names, fn);
  on("pieces moves selected last", () => { choice = []; draw(); drawChoice(); });
  on("flipped", layout);
  on("fen turn history can_undo can_redo outcome engine_running engine_available engine_side moves", drawInfo);
  on("perft_result perft_total perft_running", drawPerft);
  on("eval_white eval_text eval_pv", drawEval);
  on("error", () => { err.textContent = model.get("error"); });
  on("status", () => { status.textContent = model.get("status"); });
  on("perft_depth", () => { depthIn.value = String(model.get("perft_depth")); });
  layout(); drawInfo(); drawPerft(); drawEval();
  err.textContent = model.get("error");
  status.textContent = model.get("status");
}

export default { render };
