// numba_words notebook widgets: what every widget's view shares. Python puts this file in front of each
// widget's own script (one module, no imports: anywidget loads a single ES module, no build step).

// h("div", {class: "x", onclick: fn, text: "..."}, ...children): a DOM element
function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of kids) e.append(c);
  return e;
}

// model.on for several traits at once: on(model, "a b c", fn)
function onChange(model, names, fn) { for (const n of names.split(" ")) model.on("change:" + n, fn); }
