// numba_words Bookworm / Boggle board widget (anywidget ESM, plain JavaScript, no build step).
// The words and their paths come from the Python model; a click on a word traces its path on the grid.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 26;

function s(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function render({ model, el }) {
  el.classList.add("nw-widget", "nw-bw");
  let hover = null;                       // path of the hovered word (view-only)
  const svg = s("svg", { "data-role": "board" });
  const tbody = h("tbody", { "data-role": "words" });
  const bestOut = h("div", { class: "nw-small", "data-role": "best" });
  const info = h("div", { class: "nw-status", "data-role": "info" });
  const playB = h("button", { "data-role": "play", text: "play",
    onclick: () => model.send({ type: "play", index: model.get("selected") }) });
  const undoB = h("button", { "data-role": "undo", text: "undo", onclick: () => model.send({ type: "undo" }) });
  const hist = h("div", { class: "nw-small nw-list", "data-role": "history" });
  const err = h("div", { class: "nw-error", "data-role": "error" });
  const status = h("div", { class: "nw-status", "data-role": "status" });

  function drawBoard() {
    const tiles = model.get("tiles"), hex = model.get("hex");
    const sel = model.get("path"), path = hover || sel;
    const on = new Set(path);
    svg.setAttribute("width", model.get("width"));
    svg.setAttribute("height", model.get("height"));
    svg.setAttribute("viewBox", `0 0 ${model.get("width")} ${model.get("height")}`);
    svg.replaceChildren();
    tiles.forEach((t, i) => {
      let shape;
      if (hex) {
        const pts = [...Array(6).keys()].map((k) => `${(t.x + 0.97 * SIZE * Math.cos(Math.PI / 3 * k)).toFixed(1)},`
          + `${(t.y + 0.97 * SIZE * Math.sin(Math.PI / 3 * k)).toFixed(1)}`).join(" ");
        shape = s("polygon", { points: pts });
      } else {
        shape = s("rect", { x: t.x - 0.9 * SIZE, y: t.y - 0.9 * SIZE, width: 1.8 * SIZE, height: 1.8 * SIZE, rx: SIZE / 5 });
      }
      shape.setAttribute("fill", t.fill);
      shape.setAttribute("stroke", on.has(i) ? "#1a56db" : "#9a8060");
      shape.setAttribute("stroke-width", on.has(i) ? 3 : 1);
      shape.setAttribute("class", "nw-tilepoly" + (on.has(i) ? " nw-on" : ""));
      shape.dataset.tile = i;
      const text = s("text", { x: t.x, y: t.y + SIZE * 0.3, "text-anchor": "middle", "font-size": SIZE * 0.8,
        "font-weight": "bold", "font-family": "sans-serif" });
      text.textContent = t.label;
      svg.append(shape, text);
    });
    if (path.length > 1) {
      svg.append(s("polyline", { points: path.map((i) => `${tiles[i].x},${tiles[i].y}`).join(" "), fill: "none",
        stroke: "#1a56db", "stroke-opacity": 0.55, "stroke-width": SIZE / 4, "stroke-linecap": "round",
        "stroke-linejoin": "round", "data-role": "trace" }));
    }
    if (path.length) {
      const t = tiles[path[0]];
      svg.append(s("circle", { cx: t.x, cy: t.y, r: SIZE / 4, fill: "#1a56db", "fill-opacity": 0.6 }));
    }
    svg.dataset.path = path.join(",");
  }

  function drawWords() {
    const words = model.get("words"), sel = model.get("selected");
    const best = new Set(Object.values(model.get("best_by_length")));
    tbody.replaceChildren(...words.map((w, i) => {
      const tr = h("tr", { "data-index": i, class: (i === sel ? "nw-selected " : "") + (best.has(i) ? "nw-bestlen" : "") },
        h("td", { class: best.has(i) ? "nw-best" : "", text: w.word }), h("td", { class: "num", text: String(w.score) }),
        h("td", { class: "num", text: String(w.length) }));
      tr.addEventListener("mouseenter", () => { hover = w.path; drawBoard(); });
      tr.addEventListener("mouseleave", () => { hover = null; drawBoard(); });
      tr.addEventListener("click", () => { model.set("selected", i); model.save_changes(); drawWords(); });
      tr.addEventListener("dblclick", () => model.send({ type: "play", index: i }));
      return tr;
    }));
    const bl = model.get("best_by_length");
    bestOut.textContent = "best of each length: " + Object.keys(bl).sort((a, b) => b - a)
      .map((n) => `${n}: ${words[bl[n]].word} (${words[bl[n]].score})`).join(", ");
    info.textContent = `${model.get("n_words")} words; score ${model.get("score")}, level ${model.get("level")}, `
      + `turn ${model.get("turn")}` + (model.get("game_over") ? `; game over: ${model.get("game_over")}` : "");
    playB.disabled = !(model.get("can_play") && sel >= 0);
    undoB.disabled = !model.get("can_undo");
    hist.textContent = model.get("history").map(([w, n]) => `${w} ${n}`).join(", ");
  }

  const table = h("table", { class: "nw-table" }, h("thead", {}, h("tr", {}, h("th", { text: "word" }),
    h("th", { class: "num", text: "score" }), h("th", { class: "num", text: "len" }))), tbody);
  el.replaceChildren(h("div", {}, svg), h("div", { class: "nw-panel" }, info, bestOut,
    h("div", { class: "nw-row" }, playB, undoB), h("div", { class: "nw-list" }, table), hist, err, status));

  const on = (names, fn) => onChange(model, names, fn);
  on("tiles path width height hex", drawBoard);
  on("words selected best_by_length n_words score level turn game_over can_play can_undo history", drawWords);
  on("error", () => { err.textContent = model.get("error"); });
  on("status", () => { status.textContent = model.get("status"); });
  drawBoard(); drawWords();
  err.textContent = model.get("error");
  status.textContent = model.get("status");
}

export default { render };
