"""A plain web page that hosts a notebook widget's JavaScript with a model wired to the Python widget.

What Jupyter does over its websocket, this does over HTTP on 127.0.0.1: the page's model implements the
anywidget model interface (``get``/``set``/``on``/``off``/``save_changes``/``send``); ``save_changes`` and
``send`` POST to the server in order (one request at a time, as a websocket keeps them), which applies them
to the widget with ipywidgets' own ``set_state``/``_handle_custom_msg`` (one at a time, as a kernel does);
what the widget sends back (its ``_send``: state updates, from any thread) streams to the page as
server-sent events. So a key typed in the page goes through the real Python computation.
"""
from __future__ import annotations

import json
import queue
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>widget</title><link rel="stylesheet" href="/widget.css">
<style>body { margin: 8px; background: #fff; }</style></head>
<body><div id="root"></div>
<script type="module">
import widget from "/widget.js";
const state = await (await fetch("/state")).json();
const listeners = new Map();
const emit = (ev, ...args) => { for (const f of [...(listeners.get(ev) || [])]) f(...args); };
let pending = {};
let chain = Promise.resolve();
const post = (url, body) => {
  window.__nwInFlight = (window.__nwInFlight || 0) + 1;
  chain = chain.then(() => fetch(url, { method: "POST", body: JSON.stringify(body) }))
    .finally(() => { window.__nwInFlight -= 1; });
};
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; pending[k] = v; emit("change:" + k, model, v); },
  on: (ev, fn) => { if (!listeners.has(ev)) listeners.set(ev, []); listeners.get(ev).push(fn); },
  off: (ev, fn) => { const l = listeners.get(ev) || []; const i = l.indexOf(fn); if (i >= 0) l.splice(i, 1); },
  save_changes: () => { const d = pending; pending = {}; post("/update", d); },
  send: (content) => post("/msg", content),
};
const events = new EventSource("/events");
events.onmessage = (e) => {
  const msg = JSON.parse(e.data);
  if (msg.method === "update") {
    Object.assign(state, msg.state);
    for (const k of Object.keys(msg.state)) emit("change:" + k, model, msg.state[k]);
  } else if (msg.method === "custom") {
    emit("msg:custom", msg.content);
  }
};
events.onopen = () => { window.__nwReady = true; };
window.__nwModel = model;
const el = document.getElementById("root");
await widget.render({ model, el });
window.__nwRendered = true;
</script></body></html>
"""


class Harness:
    """Serve ``widget`` (an anywidget instance) on ``http://127.0.0.1:<port>/``; use as a context manager."""

    def __init__(self, widget):
        self.widget = widget
        self.lock = threading.Lock()
        self.outbox: "queue.Queue[dict | None]" = queue.Queue()
        self.errors: list = []
        widget._send = self._capture  # what the widget would send over its comm comes here
        harness = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # (small writes held back 40 ms for the peer's delayed ACK otherwise)

            def log_message(self, *args):
                pass

            def _reply(self, body: bytes, kind: str, code: int = 200):
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path == "/":
                    self._reply(PAGE.encode(), "text/html; charset=utf-8")
                elif self.path == "/widget.js":
                    self._reply(_text(harness.widget._esm).encode(), "text/javascript; charset=utf-8")
                elif self.path == "/widget.css":
                    self._reply(_text(harness.widget._css).encode(), "text/css; charset=utf-8")
                elif self.path == "/state":
                    with harness.lock:
                        state = harness.widget.get_state()
                    self._reply(json.dumps(state).encode(), "application/json")
                elif self.path == "/events":
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    self.wfile.write(b": open\n\n")
                    self.wfile.flush()
                    while True:
                        msg = harness.outbox.get()
                        if msg is None:
                            return
                        self.wfile.write(b"data: " + json.dumps(msg).encode() + b"\n\n")
                        self.wfile.flush()
                else:
                    self._reply(b"not found", "text/plain", 404)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                try:
                    with harness.lock:
                        if self.path == "/update":
                            harness.widget.set_state(body)
                        elif self.path == "/msg":
                            harness.widget._handle_custom_msg(body, [])
                except Exception as e:  # the test fails on it; the page carries on
                    harness.errors.append(e)
                self._reply(b"{}", "application/json")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _capture(self, msg, buffers=None):
        if msg.get("method") != "echo_update":
            self.outbox.put(msg)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.outbox.put(None)
        self.server.shutdown()
        self.server.server_close()


def _text(x) -> str:
    return Path(x).read_text() if isinstance(x, Path) else str(x)
