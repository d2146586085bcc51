"""The notebook widgets in headless Chromium: the widget's own JavaScript in a page whose model talks to the
Python widget (tests/widget_harness.py), so every key typed and square clicked goes through the real Python
computation. The DOM is checked against the Python API's answers; keystroke and click latencies are printed
and saved with a screenshot of each widget under tests/artifacts/ (run ``pytest -m browser -s``)."""
from __future__ import annotations

import pytest

pytest.importorskip("anywidget", reason="the widgets need anywidget: pip install 'numba_words[widgets]'")

from browser import ARTIFACTS, browser, open_widget, report, screenshot, settle  # noqa: E402,F401  (browser: a fixture)
from widget_harness import Harness  # noqa: E402

pytestmark = pytest.mark.browser

MIDGAME = "A14/B14/O14/I14/DEAVE2WOOF4/EFS1TALA1HET3/a4MINX6/U2CLADE7/15/15/15/15/15/15/15 ADDERTU/ 173/113 0"

# a keystroke's latency: keydown in the rack box to the play list showing that rack's plays (MutationObserver)
LATENCY_JS = """() => {
  const inp = document.querySelector('[data-role=rack]');
  const body = document.querySelector('[data-role=plays]');
  window.__lat = []; window.__t0 = null; window.__pend = new Map();
  inp.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
  inp.addEventListener('input', () => { window.__pend.set(inp.value, window.__t0); }, true);
  new MutationObserver(() => {
    const v = body.dataset.for;
    if (window.__pend.has(v)) { window.__lat.push([v, performance.now() - window.__pend.get(v)]); window.__pend.delete(v); }
  }).observe(body, { attributes: true, childList: true });
}"""


def _rows(page, role):
    return page.eval_on_selector_all(f"[data-role={role}] tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")


def _wait_for_rack(page, rack):
    page.wait_for_function("r => document.querySelector('[data-role=plays]').dataset.for === r", arg=rack,
                           timeout=60_000)


def test_crossword_board_in_browser(browser):
    from numba_words.scrabble import BoardWidget, Position

    widget = BoardWidget(Position.from_cgp(MIDGAME), rack="")
    truth = Position.from_cgp(MIDGAME)
    with Harness(widget) as h:
        page = open_widget(browser, h)
        page.evaluate(LATENCY_JS)
        rack_box = page.locator("[data-role=rack]")

        # typed fast, no key lost: the list ends on the whole rack and matches the Python API
        rack_box.click()
        page.keyboard.type("ADERST?")
        _wait_for_rack(page, "ADERST?")
        truth.rack = "ADERST?"
        rows = _rows(page, "plays")
        assert [(r[0], int(r[1])) for r in rows] == [(p.notation, p.score) for p in truth.top(10)]
        assert page.locator("[data-role=info]").inner_text().startswith(f"{len(truth.legal_plays())} legal plays")

        fast = [ms for v, ms in page.evaluate("() => window.__lat") if v == "ADERST?"]

        # one key at a time: each keystroke's latency to the updated list (midgame, rack of 7 with a blank)
        page.evaluate("() => { window.__lat = []; }")
        for _ in range(3):
            rack_box.fill("")
            _wait_for_rack(page, "")
            for k, ch in enumerate("ADERST?"):
                page.keyboard.press(ch if ch != "?" else "Shift+Slash")
                _wait_for_rack(page, "ADERST?"[: k + 1])
        lat = [x for x in page.evaluate("() => window.__lat") if x[0]]  # (not the emptied box)
        assert [v for v, _ in lat] == ["ADERST?"[: k + 1] for k in range(7)] * 3
        report("scrabble_keystroke", [ms for _, ms in lat], last_key_ms=[ms for v, ms in lat if len(v) == 7],
               python_ms=widget.compute_ms, typed_fast_last_key_ms=fast)

        # by equity: the list follows the toggle
        page.select_option("[data-role=by]", "equity")
        page.wait_for_function("() => document.querySelector('[data-role=plays] tr td').textContent === "
                               f"{truth.top(1, 'equity')[0].notation!r}", timeout=30_000)
        settle(page)
        assert [r[0] for r in _rows(page, "plays")] == [p.notation for p in truth.top(10, "equity")]

        # hover previews a play, a click selects it: the highlighted squares are the play's new tiles
        second = truth.top(10, "equity")[1]
        page.locator("[data-role=plays] tr").nth(1).hover()
        pre = page.eval_on_selector_all(".nw-sq.preview", "s => s.map(e => [+e.dataset.r, +e.dataset.c])")
        assert sorted(map(tuple, pre)) == sorted((r, c) for r, c, _, _ in second.placed)
        first = truth.top(10, "equity")[0]
        page.locator("[data-role=plays] tr").nth(0).click()
        page.wait_for_function("() => document.querySelectorAll('.nw-sq.sel').length > 0", timeout=30_000)
        settle(page)
        assert widget.selected == 0
        sel = page.eval_on_selector_all(".nw-sq.sel", "s => s.map(e => [+e.dataset.r, +e.dataset.c, e.textContent])")
        assert sorted((r, c) for r, c, _ in sel) == sorted((r, c) for r, c, _, _ in first.placed)
        screenshot(page, "scrabble_widget")

        # the slot finder asks the lexicon
        page.fill("[data-role=slot-pattern]", ".A[EI].S")
        page.fill("[data-role=slot-rack]", "ZAPTIS?")
        want = [str(m) for m in truth.lexicon.match(".A[EI].S", "ZAPTIS?")]
        page.wait_for_function("n => document.querySelector('[data-role=slot-words]').textContent.startsWith(n + ' words')",
                               arg=len(want), timeout=30_000)
        assert page.locator("[data-role=slot-words]").inner_text().split(": ", 1)[1].split() == want[:200]

        # "simulate" fills its table in the background until "stop"
        widget.sim_candidates, widget.sim_plies = 3, 1
        page.click("[data-role=simulate]")
        page.wait_for_function("() => document.querySelectorAll('[data-role=sim] tr').length === 3", timeout=120_000)
        # a simulation that settles (candidates dropped down to one) ends by itself: stop only one still running
        page.evaluate("() => { const b = document.querySelector('[data-role=stop]'); if (!b.disabled) b.click(); }")
        page.wait_for_function("() => document.querySelector('[data-role=stop]').disabled", timeout=120_000)
        settle(page)
        assert not widget.sim_running and widget.sim_iterations > 0
        assert [r[0] for r in _rows(page, "sim")] == [r["notation"] for r in widget.sim_rows]
        assert page.locator("[data-role=sim-info]").inner_text() == f"{widget.sim_iterations} iterations"

        # "play it": the board takes the play's tiles
        page.click("[data-role=play]")
        page.wait_for_function("() => document.querySelector('[data-role=status]').textContent.startsWith('played')",
                               timeout=30_000)
        settle(page)
        for r, c, ch, bl in first.placed:
            tile = page.locator(f".nw-sq[data-r='{r}'][data-c='{c}'] .nw-tile")
            assert tile.inner_text()[:1] == ch
            assert ("blank" in tile.get_attribute("class")) == bl
        assert widget.scores == [113, 173 + first.score]

        # a square clicked and a letter typed set up the position
        page.click(".nw-sq[data-r='14'][data-c='0']")
        page.keyboard.press("Q")
        page.wait_for_function("() => document.querySelector(\".nw-sq[data-r='14'][data-c='0'] .nw-tile\") !== null",
                               timeout=30_000)
        settle(page)
        assert widget.board[14][0] == "Q" and widget.position.rows()[14][0] == "Q"
        assert not h.errors and not page._nw_errors
        page.close()


# the time from a click on a piece to its moves highlighted, and to the next frame drawn
CLICK_JS = """async (s) => {
  const e = document.querySelector(`[data-sq='${s}']`);
  const t0 = performance.now();
  e.click();
  const t1 = document.querySelector('.nw-dsq.from') ? performance.now() : NaN;
  await new Promise((r) => requestAnimationFrame(() => r()));
  return [t1 - t0, performance.now() - t0,
          [...document.querySelectorAll('.nw-dsq.target')].map((x) => +x.dataset.sq).sort((a, b) => a - b)];
}"""


def _squares(page, cls):
    return sorted(page.eval_on_selector_all(f".nw-dsq.{cls}", "s => s.map(e => +e.dataset.sq)"))


def test_draughts_board_in_browser(browser):
    from numba_words.draughts import BoardWidget, Position, divide

    widget = BoardWidget()
    truth = Position()
    with Harness(widget) as h:
        page = open_widget(browser, h)
        # a click on each movable piece: its targets are the Python API's (and a second click deselects)
        lat, frame = [], []
        froms = sorted({m.from_square for m in truth.legal_moves})
        for _ in range(2):
            for s in froms:
                hl, fr, targets = page.evaluate(CLICK_JS, s)
                assert targets == sorted(m.to_square for m in truth.legal_moves if m.from_square == s)
                lat.append(hl)
                frame.append(fr)
                page.evaluate(CLICK_JS, s)
        settle(page)
        report("draughts_click_to_highlight", lat, to_next_frame_ms=[round(x, 2) for x in frame])

        # a click on a target plays the move through Python: the new position is the API's
        moves_ms = []
        for frm, to in ((32, 28), (19, 23), (28, 19)):
            page.evaluate(CLICK_JS, frm)
            t = page.evaluate("""async (to) => { const t0 = performance.now(); const fen = document.querySelector('[data-role=fen]').value;
                document.querySelector(`[data-sq='${to}']`).click();
                while (document.querySelector('[data-role=fen]').value === fen) await new Promise((r) => setTimeout(r, 0));
                return performance.now() - t0; }""", to)
            moves_ms.append(t)
            truth.push(next(m for m in truth.legal_moves if (m.from_square, m.to_square) == (frm, to)))
            settle(page)
            assert widget.fen == truth.fen() == page.input_value("[data-role=fen]")
        report("draughts_click_to_move", moves_ms)
        for s in range(1, 51):
            assert (page.locator(f"[data-sq='{s}'] .nw-piece").get_attribute("data-piece")
                    if page.locator(f"[data-sq='{s}'] .nw-piece").count() else None) == truth.piece_at(s)
        page.click("[data-role=undo]")
        page.wait_for_function("f => document.querySelector('[data-role=fen]').value !== f", arg=truth.fen())
        truth.pop()
        assert page.input_value("[data-role=fen]") == truth.fen()
        page.click("[data-role=redo]")
        page.wait_for_function("() => !document.querySelector('[data-role=redo]').disabled === false")
        settle(page)

        # a capture: its landing squares and captured pieces are shown, as the API has them
        fen = "W:W28:B12,22,23"
        page.fill("[data-role=fen]", fen)
        page.click("[data-role=load]")
        page.wait_for_function("() => document.querySelector(\"[data-sq='12'] .nw-piece\") !== null")
        settle(page)
        (cap,) = list(Position(fen).legal_moves)
        page.evaluate(CLICK_JS, 28)
        assert _squares(page, "target") == [cap.to_square]
        assert _squares(page, "path") == sorted(cap.path[1:-1]) and _squares(page, "captured") == sorted(cap.captured)
        screenshot(page, "draughts_widget")

        # perft/divide on request
        page.fill("[data-role=fen]", "W:W31-50:B1-20")
        page.click("[data-role=load]")
        page.wait_for_function("() => document.querySelector(\"[data-sq='1'] .nw-piece\") !== null")
        page.fill("[data-role=perft-depth]", "3")
        page.dispatch_event("[data-role=perft-depth]", "change")
        page.click("[data-role=perft]")
        page.wait_for_function("() => document.querySelector('[data-role=perft-out]').textContent.includes('Nodes')",
                               timeout=120_000)
        want = divide(Position(), 3)
        text = page.locator("[data-role=perft-out]").inner_text()
        assert text.endswith(f"Nodes searched: {sum(want.values())}")
        assert all(f"{m}: {n}" in text for m, n in want.items())
        assert not h.errors and not page._nw_errors
        page.close()


def test_bookworm_board_in_browser(browser):
    from numba_words.bookworm import BoardWidget, Position

    widget = BoardWidget(Position.random(seed=1))
    truth = Position.random(seed=1)
    top = truth.words().top(200)
    with Harness(widget) as h:
        page = open_widget(browser, h)
        rows = _rows(page, "words")
        assert [(r[0], int(r[1])) for r in rows] == [(f.word, f.score) for f in top]
        # the best word of each length is marked
        best = page.eval_on_selector_all("[data-role=words] tr.nw-bestlen", "rs => rs.map(r => r.cells[0].textContent)")
        lengths = {}
        for f in top:
            lengths.setdefault(len(f.word), f.word)
        assert best == sorted(lengths.values(), key=lambda w: [f.word for f in top].index(w))
        # a click on a word traces its path on the grid
        lat = []
        for i in (0, 3, 12, 40):
            ms = page.evaluate("""async (i) => { const t0 = performance.now();
                document.querySelectorAll('[data-role=words] tr')[i].click();
                await new Promise((r) => requestAnimationFrame(() => r())); return performance.now() - t0; }""", i)
            lat.append(ms)
            want = ",".join(map(str, top[i].path))
            # (the trace may land a frame after the click on a busy machine: wait for it, then check it)
            page.wait_for_function("(p) => document.querySelector('[data-role=board]').dataset.path === p", arg=want,
                                   timeout=10_000)
            traced = page.eval_on_selector("[data-role=board]", "s => s.dataset.path")
            assert traced == want
            on = sorted(page.eval_on_selector_all(".nw-tilepoly.nw-on", "s => s.map(e => +e.dataset.tile)"))
            assert on == sorted(top[i].path)
        report("bookworm_click_to_trace", lat)
        settle(page)
        assert widget.path == list(top[40].path)
        page.locator("[data-role=words] tr").nth(0).click()
        settle(page)
        screenshot(page, "bookworm_widget")
        # play: gravity and refill as Position.play does
        page.click("[data-role=play]")
        page.wait_for_function("() => document.querySelector('[data-role=status]').textContent.startsWith('played')")
        settle(page)
        turn = truth.play(top[0].path)
        labels = page.eval_on_selector_all("[data-role=board] text", "s => s.map(e => e.textContent)")
        assert labels == [("Qu" if truth.letters(k) == "qu" else truth.letters(k).upper())
                          for k in range(truth.grid.n_tiles)]
        assert f"score {turn.total}" in page.locator("[data-role=info]").inner_text()
        assert not h.errors and not page._nw_errors
        page.close()


def test_draughts_engine_in_browser(browser):
    import numba_words.draughts as D

    if not hasattr(D, "Engine"):
        pytest.skip("the draughts search engine is not in this version")
    widget = D.BoardWidget(engine_time=0.2)
    truth = D.Position()
    with Harness(widget) as h:
        page = open_widget(browser, h)
        assert page.locator("[data-role=evalbar]").is_visible()
        # the engine's move, then a game against it: it answers a move clicked on the board
        page.click("[data-role=engine]")
        page.wait_for_function("() => document.querySelector('[data-role=history]').textContent.startsWith('1.')",
                               timeout=120_000)
        settle(page)
        truth.push_notation(widget.history[0])
        assert page.input_value("[data-role=fen]") == truth.fen()
        page.select_option("[data-role=engine-side]", "W")
        settle(page)
        black = next(iter(truth.legal_moves))
        page.evaluate(CLICK_JS, black.from_square)
        page.click(f"[data-sq='{black.to_square}']")
        page.wait_for_function("() => document.querySelector('[data-role=history]').textContent.split(' ').length >= 4",
                               timeout=120_000)
        page.wait_for_function("() => !document.querySelector('[data-role=stop]').disabled === false", timeout=60_000)
        settle(page)
        truth.push(black)
        reply = truth.parse_move(widget.history[2])
        assert reply in truth.legal_moves
        truth.push(reply)
        assert page.input_value("[data-role=fen]") == truth.fen() == widget.fen
        height = page.eval_on_selector("[data-role=evalbar] > div", "e => parseFloat(e.style.height)")
        assert height == round(100 * widget.eval_white) and widget.eval_text in page.locator("[data-role=eval]").inner_text()
        screenshot(page, "draughts_engine")
        assert not h.errors and not page._nw_errors
        page.close()


def test_widgets_in_jupyterlab(browser, tmp_path):
    """The three widgets in a real JupyterLab (when it is installed): rendered by anywidget's front end, the rack
    typed in the crossword board goes through the kernel's comm, the list is the API's, a draughts piece's
    targets are highlighted. Prints the keystroke latencies there."""
    pytest.importorskip("jupyterlab", reason="the JupyterLab check needs jupyterlab: pip install jupyterlab")
    import os
    import socket
    import subprocess
    import sys

    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook

    from numba_words.scrabble import Position

    nb = new_notebook(metadata={"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}})
    nb.cells = [new_code_cell(f"from numba_words.scrabble import BoardWidget, Position\n"
                              f"BoardWidget(Position.from_cgp({MIDGAME!r}), rack='')"),
                new_code_cell("from numba_words.draughts import BoardWidget\nBoardWidget()"),
                new_code_cell("from numba_words.bookworm import BoardWidget, Position\nBoardWidget(Position.random(seed=1))")]
    nbformat.write(nb, str(tmp_path / "w.ipynb"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "rt"), JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"))
    server = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser", f"--port={port}",
                               "--ip=127.0.0.1", "--ServerApp.token=", "--ServerApp.password=",
                               "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={tmp_path}"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for _ in range(600):
            try:
                page.goto(f"http://127.0.0.1:{port}/lab/tree/w.ipynb")
                break
            except Exception:  # the server is not listening yet
                page.wait_for_timeout(100)
        page.wait_for_function("window.jupyterapp !== undefined", timeout=120_000)
        page.wait_for_selector(".jp-Notebook", timeout=120_000)
        page.wait_for_timeout(2000)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        for sel in (".nw-xboard", ".nw-dboard", ".nw-bw svg polygon"):
            page.wait_for_selector(sel, timeout=180_000)
        page.locator("[data-role=rack]").click()
        page.keyboard.type("ADERST?")
        _wait_for_rack(page, "ADERST?")
        truth = Position.from_cgp(MIDGAME)
        truth.rack = "ADERST?"
        assert [r[0] for r in _rows(page, "plays")] == [p.notation for p in truth.top(10)]
        lat = []
        for k in range(7):
            lat.append(page.evaluate("""async (v) => { const inp = document.querySelector('[data-role=rack]');
                const t0 = performance.now(); inp.value = v; inp.dispatchEvent(new Event('input'));
                while (document.querySelector('[data-role=plays]').dataset.for !== v) await new Promise(r => setTimeout(r, 0));
                return performance.now() - t0; }""", "ADERST?"[: k + 1]))
        report("jupyterlab_keystroke", lat)
        page.click(".nw-dsq[data-sq='32']")
        assert _squares(page, "target") == [27, 28]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "jupyterlab.png"))
        assert errors == []
    finally:
        page.close()
        server.terminate()
        server.wait(30)
