"""Run every side-by-side comparison with the peer engines and write the Benchmarks page, ``docs/benchmarks.md``.

    python benchmarks/report.py --peers DIR [--quick] [--out docs/benchmarks.md] [--only draughts,boggle,...]

``--peers DIR`` (or the environment variable ``NUMBA_WORDS_PEERS``) is the folder of the peer engines built from
their public repositories by the peers kit (MAGPIE with its data, Moby Dam, Scan, hybrid-boggle). Each
comparison is one of the scripts beside this one, run as its own process with the command shown on the page:

- draughts perft against Moby Dam and Scan (``draughts_vs_peers.py``);
- a draughts match against Moby Dam over DXP from the two-move ballots (``draughts_match.py``);
- crossword move generation and best play against MAGPIE (``scrabble_vs_magpie.py``);
- crossword self-play against MAGPIE's ``autoplay`` (``scrabble_autoplay_magpie.py``);
- simulation and exact endgames against MAGPIE's ``sim`` and ``endgame`` (``scrabble_search_magpie.py``);
- rack inference, the pre-endgame solver and game analysis against MAGPIE's ``infer``, ``peg`` and ``analyze``
  (``scrabble_analyst_magpie.py``);
- Boggle scoring against hybrid-boggle (``boggle_vs_peers.py``).

The page holds one current table per engine with the date, the machine (CPU model, cores), this repository's
commit, the peers' commits and every command; history lives in git. ``--quick`` runs every comparison on small
inputs with one round (a check that the pipeline works, in a few minutes; its figures are not the reference and
the page says so). Run the full report on a machine with nothing else running. Exits 1 if any comparison failed
(its section on the page then shows the error). With ``--only``, the sections and README rows of the other
comparisons stay as they were (each section names the date and commit of its own run).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PEERS = {  # folder under --peers: (repository, what it is)
    "MAGPIE": ("jvc56/MAGPIE", "crossword games, C"),
    "MAGPIE-DATA": ("jvc56/MAGPIE-DATA", "MAGPIE's lexica and leave tables"),
    "mobydam": ("rhalbersma/mobydam", "draughts, C"),
    "scan": ("rhalbersma/scan", "draughts, C++ (Scan 3.1)"),
    "hybrid-boggle": ("danvk/hybrid-boggle", "Boggle, C++"),
}
SECTIONS = ("draughts", "match", "tactics", "movegen", "autoplay", "sim", "endgame", "analyst", "boggle")
# MAGPIE's test endgames and the depth each is solved to: 6 plies where both engines take seconds, fewer where
# a deeper search takes minutes (the positions with many plays).
ENDGAMES = (("vs_joey", 6), ("pass_first", 6), ("solve_standard", 6), ("very_deep", 6), ("eldar_v_stick", 6),
            ("outplay_zobrist_overflow", 6), ("kue", 3), ("monster_q", 3), ("via_opp_must_block", 4),
            ("via_mover_must_bingo", 4))
ENDGAMES_QUICK = (("very_deep", 2), ("solve_standard", 2))


def machine() -> dict:
    """CPU model and core count (from ``/proc/cpuinfo`` where there is one), OS and versions."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba
    import numpy

    return {"cpu": model, "cores": os.cpu_count(), "os": f"{platform.system()} {platform.release()}",
            "python": platform.python_version(), "numba": numba.__version__, "numpy": numpy.__version__}


def git_commit(path: Path, dirty_flag: bool = True) -> str:
    """Short commit of the checkout at ``path`` (``+dirty`` with uncommitted changes unless ``dirty_flag`` is
    false: the peers are built inside their checkouts), or ``?``."""
    try:
        head = subprocess.run(["git", "-C", str(path), "rev-parse", "--short=10", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty and dirty_flag else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def commands(peers: str, quick: bool, tmp: Path, match_games: int = 158) -> dict:
    """Each section's command lines (argument lists, run from the repository root), each with its JSON output."""
    py = [sys.executable]
    q = quick
    endgames = "benchmarks/data/magpie_endgame_tests.cgp"
    return {
        "draughts": (py + ["benchmarks/draughts_vs_peers.py", "--peers", peers, "--rounds", "1" if q else "3",
                           "--json", str(tmp / "draughts.json")] + (["--quick"] if q else []), tmp / "draughts.json"),
        "match": (py + ["benchmarks/draughts_match.py", "--mobydam", str(Path(peers) / "mobydam" / "main" / "mobydam"),
                        "--time", "0.1", "--games", "4" if q else str(match_games), "--out", str(tmp / "match")],
                  tmp / "match" / "summary.json"),
        "tactics": [(py + ["benchmarks/draughts_tactics.py", "run", "--mobydam",
                           str(Path(peers) / "mobydam" / "main" / "mobydam"), "--time", "0.1" if q else "1",
                           "--depth", "8" if q else "14", "--workdir", str(tmp)], None),
                    (py + ["benchmarks/draughts_search_bench.py", "--mobydam",
                           str(Path(peers) / "mobydam" / "main" / "mobydam"), "--positions", "1" if q else "4",
                           "--seconds", "1" if q else "10"], None)],
        "movegen": (py + ["benchmarks/scrabble_vs_magpie.py", "--magpie", peers, "--rounds", "1" if q else "3"]
                    + (["--min-time", "0.05"] if q else ["--per-position", "--threads", "--batch"]), None),
        "autoplay": (py + ["benchmarks/scrabble_autoplay_magpie.py", "--magpie", str(Path(peers) / "MAGPIE"),
                           "--games", "100" if q else "2000", "--rounds", "1" if q else "3"], None),
        "sim": (py + ["benchmarks/scrabble_search_magpie.py", "sim", "--magpie", str(Path(peers) / "MAGPIE"),
                      "--iterations", "40" if q else "500", "--rounds", "1" if q else "2"]
                + (["--positions", "1"] if q else []), None),
        "endgame": [(py + ["benchmarks/scrabble_search_magpie.py", "endgame", "--magpie", str(Path(peers) / "MAGPIE"),
                           "--cgp", endgames, "--rounds", "1", "--plies", str(plies), "--only", name], None)
                    for name, plies in (ENDGAMES_QUICK if q else ENDGAMES)],
        # (the second, not in quick mode: the exact pre-endgame with 2 and 3 tiles in the bag, positions without a
        # blank unseen, plays of 5 tiles or more; MAGPIE's exhaustive mode took 1,082 CPU s at 2 tiles, busy machine)
        "analyst": [(py + ["benchmarks/scrabble_analyst_magpie.py", "--magpie", peers, "--positions", "1",
                           "--bag", "1", "2", "3", "--iterations", "16", "--exact", "--exact-bag", "1",
                           "--exact-candidates", "2", "--exact-budget", "900"], None)] + ([] if q else [
                    (py + ["benchmarks/scrabble_analyst_magpie.py", "peg", "--magpie", peers, "--positions", "1",
                           "--bag", "2", "3", "--exact", "--modes", "exact", "--exact-candidates", "2",
                           "--exact-min-tiles", "5", "--no-blank", "--exact-budget", "3600"], None)]),
        "boggle": (py + ["benchmarks/boggle_vs_peers.py", "--peers", peers, "--rounds", "1" if q else "5",
                         "--json", str(tmp / "boggle.json")] + (["--quick"] if q else []), tmp / "boggle.json"),
    }


def shown(cmd: list, peers: str) -> str:
    """The command as a reader types it: ``python``, and ``DIR`` for the peers folder."""
    out = ["python"]
    args = iter(cmd[1:])
    for c in args:
        if c in ("--json", "--out", "--workdir"):  # where the report collects its rows: not what a reader runs
            next(args)
            continue
        out.append(c)
    return " ".join(c.replace(peers, "DIR") for c in out)


def run(cmd: list) -> tuple[int, str, str, float]:
    t = time.perf_counter()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    out = p.stdout.replace(str(ROOT) + os.sep, "")  # the page names files as paths in the repository
    return p.returncode, out, p.stderr, time.perf_counter() - t


def _md_table(header: list, rows: list, numbers: bool = True) -> str:
    """A Markdown table; columns after the first are right-aligned when ``numbers``."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 or not numbers else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def table_draughts(out: str, data: dict) -> str:
    rows = []
    for r in data.get("rows", []):
        peer = r.get("peer_mnps")
        label = f"{r['section']}: {r['position']}"
        if r["section"] == "threads":
            label = f"2 threads: {r['position']} ({r['scaling']:.2f}x our 1-thread rate)"
        rows.append([label, r["depth"], f"{r['nodes']:,}", f"{r['ours_mnps']:.0f}",
                     "-" if peer is None else f"{peer:.0f}", "-" if r.get("ratio") is None else f"**{r['ratio']:.2f}**",
                     "-" if r.get("scan_mnps") is None else f"{r['scan_mnps']:.0f}"])
    if not rows:
        return "```text\n" + out.strip() + "\n```"
    return ("Perft, M nodes/s, 1 thread; ratio = ours over Moby Dam's (above 1: numba_words is faster).\n\n" +
            _md_table(["perft", "depth", "nodes", "numba_words", "Moby Dam", "ratio", "Scan"], rows))


def table_match(out: str, data: dict, more: list = (), note: str = "") -> str:
    if not data:
        return table_lines(out)
    rows, times = [], []

    def ours(d) -> str:  # (ours / Moby Dam's when a match gave ours more time: --our-time)
        t, o = d["time_per_move"], d.get("our_time_per_move") or d["time_per_move"]
        return f"{t:g}" if o == t else f"{o:g} / {t:g}"

    for d in [data, *more]:
        rows.append([d["games"], ours(d), d["wins"], d["draws"], d["losses"],
                     f"**{100 * d['score']:.1f}%**", f"{100 * d['score_lo']:.1f}-{100 * d['score_hi']:.1f}%",
                     _elo(d["elo"]), d["illegal_moves_ours"], d["our_moves_over_time"]])
        times.append(f"at {ours(d)} s ours {d['our_mean_move_s']:.3f} s, Moby Dam's "
                     f"{d['mobydam_mean_move_s']:.3f} s")
    cmds = "".join(f"\n\n    python benchmarks/draughts_match.py --mobydam DIR/mobydam/main/mobydam --time "
                   f"{d['time_per_move']:g} --games {d['games']}" + (f" --skip {d['skipped']}" if d.get("skipped") else "")
                   + (f" --our-time {d['our_time_per_move']:g}" if ours(d) != f"{d['time_per_move']:g}" else "")
                   for d in more)
    return ("Our engine (1 thread) against Moby Dam (1 thread, its opening book, no endgame databases), each two-move "
            "ballot opening twice with colours swapped, the same time a move for both (ours / Moby Dam's where they "
            "differ).\n\n" +
            _md_table(["games", "s a move", "+ wins", "= draws", "- losses", "score", "95% interval", "Elo",
                       "illegal moves (ours)", "our moves over time"], rows) +
            f"\n\nMean time a move: {'; '.join(times)}." + (f" {note}" if note else "") +
            (f" The other rows' commands:{cmds}" if cmds else ""))


def _elo(v) -> str:
    return str(v) if isinstance(v, str) else f"{v:+.0f}"


def pipe_blocks(out: str) -> list:
    """The ``a | b | c`` tables a script printed, in order, each as ``(text before it, header, rows)``."""
    blocks, text, table = [], [], []
    for ln in out.strip().splitlines() + [""]:
        if ln.count(" | ") >= 3:
            table.append([c.strip() for c in ln.split(" | ")])
            continue
        if table:
            blocks.append(("\n\n".join(text), table[0], table[1:]))
            text, table = [], []
        if ln.strip():
            text.append(ln.strip())
    if text:
        blocks.append(("\n\n".join(text), None, []))
    return blocks


def table_pipes(out: str) -> str:
    """The ``a | b | c`` tables a script printed, as Markdown, each after the text before it."""
    blocks = pipe_blocks(out)
    if not any(h for _, h, _ in blocks):
        return "```text\n" + out.strip() + "\n```"
    parts = []
    for text, head, rows in blocks:
        if text:
            parts.append(text)
        if head:
            parts.append(_md_table(head, rows))
    return "\n\n".join(parts)


def table_lines(out: str) -> str:
    """The result lines of a script that prints a few lines of results, as bullets."""
    lines = [ln for ln in out.strip().splitlines() if ln.strip()]
    return "\n".join(f"- {ln}" for ln in lines) if lines else "(no output)"


SIM = re.compile(r"^(?P<cgp>\S+)\.\.\. rack (?P<rack>\S+): numba_words (?P<ours>[\d,]+) playouts/s"
                 r"(?:, MAGPIE (?P<peer>[\d,]+), ratio (?P<ratio>[\d.]+)x)?")
ENDGAME = re.compile(r"^(?:(?P<name>.*?): )?(?P<racks>\S+/\S+) (?P<plies>\d+) plies: numba_words (?P<ours>[\d.]+) s "
                     r"value (?P<value>[+-]?\d+) \((?P<kind>exact|depth-limited), (?P<nodes>[\d,]+) nodes\)"
                     r"(?:; MAGPIE (?P<peer>[\d.]+) s value (?P<pvalue>[+-]?\d+))?")


def table_sim(out: str) -> str:
    rows = [[f"`{m['cgp'][:24]}...`", m["rack"], m["ours"], m["peer"] or "-", f"**{m['ratio']}**" if m["ratio"] else "-"]
            for m in map(SIM.match, out.splitlines()) if m]
    if not rows:
        return table_lines(out)
    return ("Playouts/s, 1 thread; ratio = ours over MAGPIE's (above 1: numba_words is faster).\n\n" +
            _md_table(["position", "rack", "numba_words", "MAGPIE", "ratio"], rows))


def table_endgame(out: str) -> str:
    rows = []
    for m in map(ENDGAME.match, out.splitlines()):
        if not m:
            continue
        ours, peer = float(m["ours"]), float(m["peer"]) if m["peer"] else None
        rows.append([(m["name"] or "").split(",")[0] or "-", m["racks"], m["plies"], f"{ours:.3f} s",
                     "-" if peer is None else f"{peer:.3f} s", "-" if peer is None else f"**{peer / ours:.2f}**",
                     f"{m['value']} ({m['kind']})", m["pvalue"] or "-"])
    if not rows:
        return table_lines(out)
    return ("Solve time, 1 thread; ratio = MAGPIE's time over ours (above 1: numba_words is faster). Depth-limited "
            "values may differ: each engine plays out its leaves its own way.\n\n" +
            _md_table(["endgame", "racks", "plies", "numba_words", "MAGPIE", "ratio", "value (ours)", "value (MAGPIE)"],
                      rows))


ANALYST = re.compile(r"^(?P<part>(?:infer|peg|analyze)\b.*?)\s+(?P<n>\d+)\s+(?P<ours>[\d.]+)\s+(?P<peer>[\d.]+)\s+"
                     r"(?P<ratio>[\d.]+|nan)\s+(?P<agree>.*)$")


def table_analyst(out: str) -> str:
    rows = [[m["part"], m["n"], f"{float(m['ours']):.2f} s", f"{float(m['peer']):.2f} s",
             f"**{m['ratio']}**", m["agree"]] for m in map(ANALYST.match, out.splitlines()) if m]
    if not rows:
        return table_lines(out)
    notes = [ln.strip("()") for ln in out.splitlines() if ln.startswith("(ratio")]
    return ("Seconds summed over the positions (the pre-endgame rows: CPU seconds, one row a bag size), 1 thread; "
            "ratio = MAGPIE's time over ours (above 1: numba_words is faster).\n\n" + _md_table(["part", "positions", "numba_words", "MAGPIE", "ratio", "agreement"], rows) +
            ("\n\n" + notes[0] if notes else ""))


def table_boggle(out: str, data: dict) -> str:
    if not data:
        return "```text\n" + out.strip() + "\n```"
    peer = data.get("peer_boards_per_s")

    def row(regime, rate, ratio):
        return [regime, f"{data['boards']:,}", f"{data['total_score']:,}", f"{rate:,.0f}",
                "-" if peer is None else f"{peer:,.0f}", "-" if ratio is None else f"**{ratio:.2f}**"]

    rows = [row("text boards (reading timed), 1 thread", data["ours_boards_per_s"], data.get("ratio"))]
    if data.get("codes_boards_per_s"):
        rows.append(row("pre-encoded boards (kernel alone), 1 thread", data["codes_boards_per_s"],
                        data.get("codes_ratio")))
    if data.get("threads2_boards_per_s"):
        rows.append(row(f"text boards, 2 threads ({data['threads2_scaling']:.2f}x one thread)",
                        data["threads2_boards_per_s"], data["threads2_boards_per_s"] / peer if peer else None))
    ceiling = ""
    if data.get("pair_boards_per_s") and data.get("codes2_boards_per_s"):
        ceiling = (f"\n\nThe machine's ceiling for this kernel: two independent 1-thread calls at once (pre-encoded "
                   f"boards) score {data['pair_boards_per_s']:,.0f} boards/s, {data['pair_scaling']:.2f}x one call "
                   f"alone; `threads=2` on the same boards gives {data['codes2_boards_per_s']:,.0f}, "
                   f"{data['codes2_boards_per_s'] / data['pair_boards_per_s']:.2f}x of that ceiling. Text-board "
                   f"word lists (`solve_many`) on 2 threads: {data['solve_many_scaling']:.2f}x one thread"
                   + (f"; Bookworm boards: {data['bookworm_scaling']:.2f}x" if data.get("bookworm_scaling") else "")
                   + (f". A pure-arithmetic probe gives {data['probe_scaling']:.2f}x" if data.get("probe_scaling")
                      else "") + ".")
    return ("Boggle 4×4, score only (total points of each board's distinct words); hybrid-boggle's C++ driver "
            "runs 1 thread, its board reading outside its timing; ratio = our boards/s over hybrid-boggle's.\n\n" +
            _md_table(["regime", "boards", "total score (both)", "numba_words boards/s", "hybrid-boggle boards/s",
                       "ratio"], rows) + ceiling)


def _span(values: list) -> str:
    """``1.23`` or ``1.10-1.65``: one ratio, or the range of several."""
    lo, hi = min(values), max(values)
    return f"{lo:.2f}" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}-{hi:.2f}"


def headline(name: str, out: str, data: dict) -> list:
    """The README's rows for one comparison: ``(work, peer, ratio)``, ratio as the peer's time over ours; a fourth
    item, where a comparison runs several commands, is the index of the one that measured the row."""
    rows = []
    if name == "draughts":
        for r in data.get("rows", []):
            if r["section"] == "bulk" and r["position"] == "initial" and r.get("ratio"):
                rows.append((f"draughts, perft({r['depth']}) from the start, bulk counting", "Moby Dam",
                             _span([r["ratio"]])))
    elif name == "match" and data.get("games"):
        rows.append((f"draughts, match at {data['time_per_move']:g} s a move ({data['games']} games)", "Moby Dam",
                     f"{100 * data['score']:.1f}% score"))
    elif name == "tactics":
        m = re.search(r"at ([\d.]+) s a position: numba_words solves (\d+) of (\d+), Moby Dam (\d+)", out)
        if m:
            rows.append((f"draughts, combinations from master games solved at {m[1]} s ({m[3]} positions)", "Moby Dam",
                         f"{m[2]} against {m[4]}", 0))
        m = re.search(r"all: Moby Dam ([\d.]+) M nodes/s, ours ([\d.]+) M nodes/s", out)
        if m:
            rows.append(("draughts search, nodes/s (the same positions, 1 thread, Moby Dam's own 10 s search)",
                         "Moby Dam", _span([float(m[2]) / float(m[1])]), 1))
        m = re.search(r"median time to depth (\d+): .*ratio ([\d.]+)", out)
        if m:
            rows.append((f"draughts search, median time to depth {m[1]} on 2 threads", "our 1 thread",
                         f"{float(m[2]):.2f} of the time", 0))
    elif name == "movegen":
        for _, head, body in pipe_blocks(out):
            overall = next((r for r in body if r and r[0] == "overall"), None) if head else None
            if not overall:
                continue
            for col, work, peer in (("legal_plays()", "crossword, every placement (`legal_plays()`)", "MAGPIE (KWG)"),
                                    ("best_play()", "crossword, best play by score (`best_play()`)",
                                     "MAGPIE (word map, by equity)"),
                                    ("best(by='equity')", "crossword, best play by equity (`best(by=\"equity\")`)",
                                     "MAGPIE (word map)"),
                                    ("from_cgp+legal_plays()", "crossword, new position: CGP to every placement",
                                     "MAGPIE (load + KWG)"),
                                    ("from_cgp+best_play()", "crossword, new position: CGP to the best play",
                                     "MAGPIE (load + word map)")):
                if col in head and overall[head.index(col) + 1] not in ("-", ""):
                    rows.append((work, peer, _span([float(overall[head.index(col) + 1].rstrip("x"))])))
        batch = re.findall(r"BATCH \(new positions: ([\d,]+) CGP strings.*?\(([\d.]+)x one thread's wall time\).*?"
                           r": 1 thread ([\d.]+)x \(cpu\)", out)
        if batch:  # (the largest batch)
            npos, scaling, ratio = batch[-1]
            rows.append((f"crossword, batch of {npos} new positions (`best_many`), 1 thread",
                         "MAGPIE (load + word map)", _span([float(ratio)])))
            rows.append(("crossword, the same batch on 2 threads", "our 1 thread", _span([float(scaling)])))
    elif name == "autoplay":
        m = re.search(r"ratio numba_words / MAGPIE: ([\d.]+)x", out)
        if m:
            rows.append(("crossword, self-play games by equity", "MAGPIE `autoplay`", _span([float(m.group(1))])))
    elif name == "sim":
        r = [float(m["ratio"]) for m in map(SIM.match, out.splitlines()) if m and m["ratio"]]
        if r:
            rows.append((f"crossword, simulation playouts ({len(r)} positions)", "MAGPIE `sim`", _span(r)))
    elif name == "endgame":
        r = [float(m["peer"]) / float(m["ours"]) for m in map(ENDGAME.match, out.splitlines()) if m and m["peer"]]
        if r:
            rows.append((f"crossword, endgames ({len(r)} of MAGPIE's tests)", "MAGPIE `endgame`", _span(r)))
    elif name == "analyst":
        for m in map(ANALYST.match, out.splitlines()):
            if m and m["ratio"] != "nan":
                part = m["part"].split()
                bag = m["part"].split("(bag ")[-1].rstrip(")")
                work = {"infer": "crossword, rack inference",
                        "peg": f"crossword, pre-endgame, {bag} tile(s) in the bag: " + (
                            "the same candidates solved exactly" if part[1:2] == ["exact"] else
                            "default cascades (MAGPIE's within its 60 s budget)"),
                        "analyze": "crossword, game analysis (simulated turns)"}[part[0]]
                rows.append((work, f"MAGPIE `{m['part'].split()[0]}`", _span([float(m["ratio"])])))
    elif name == "boggle" and data.get("ratio"):
        rows.append((f"Boggle 4×4, {data['boards']:,} boards as text, score only", "hybrid-boggle (C++)",
                     _span([data["ratio"]])))
        for key, work in (("threads2_scaling", "Boggle 4×4 boards as text, score only, 2 threads"),
                          ("solve_many_scaling", "Boggle 4×4 boards as text, word lists (`solve_many`), 2 threads"),
                          ("bookworm_scaling", "Bookworm boards as text, word lists (`solve_many`), 2 threads")):
            if data.get(key):
                rows.append((work, "our 1 thread", _span([data[key]])))
        if data.get("pair_boards_per_s") and data.get("codes2_boards_per_s"):
            rows.append(("Boggle 4×4, score only, 2 threads", "two 1-thread calls at once (this machine's most)",
                         _span([data["codes2_boards_per_s"] / data["pair_boards_per_s"]])))
    return rows


README_START = "<!-- benchmarks: start (written by benchmarks/report.py) -->"
README_END = "<!-- benchmarks: end -->"


def readme_rows(table: str) -> list:
    """``(work, peer, ratio, command)`` of each row of the README's benchmark table (as :func:`readme_table` wrote
    it: the ratio in bold, the command in backquotes)."""
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4 and cells[2].startswith("**") and cells[3].startswith("`"):
            rows.append((cells[0], cells[1], cells[2].strip("*"), cells[3].strip("`")))
    return rows


def merged_sections(page: str, body: list, only: list) -> list:
    """The page's body with the sections in ``only`` replaced by those of ``body`` (the lines of a run of them),
    the others kept, in the order of :data:`SECTIONS`."""
    def split(text):
        parts, title = {}, None
        for line in text.splitlines():
            if line.startswith("## "):
                title = line[3:]
                parts[title] = []
            if title is not None:
                parts[title].append(line)
        return parts

    old, new = split(page), split("\n".join(body))
    when = re.search(r"^\| date \(UTC\) \| ([^|]+?) \|", page, re.M)
    commit = re.search(r"^\| numba_words \| `([^`]+)` \|", page, re.M)
    out = []
    for name in SECTIONS:
        title = TITLES[name][0]
        lines = new.get(title) if name in only else old.get(title)
        if lines and name not in only and not any(x.startswith("Run ") for x in lines) and when and commit:
            lines = lines[:4] + [f"Run {when[1]} UTC, numba_words `{commit[1]}`.", ""] + lines[4:]
        if lines:
            out += [*lines] if lines[-1] == "" else [*lines, ""]
    return out


def readme_table(rows: list, when: str, info: dict, peers: str) -> str:
    """The README's table: one headline row a comparison; the date, machine and peers' commits once."""
    table = _md_table(["engine, work", "peer", "ratio (or score)", "command"],
                      [[w, p, f"**{r}**", f"`{c}`"] for w, p, r, c in rows], numbers=False)
    return (f"{README_START}\n{table}\n\nMeasured {when} (UTC) on {info['cpu']}, {info['cores']} cores, 1 thread, "
            f"by `python benchmarks/report.py --peers DIR`. Peers: {peers}.\n{README_END}")


TITLES = {
    "draughts": ("International draughts: perft beside Moby Dam and Scan",
                 "Node counts are checked equal first; runs alternate between the engines, best of the rounds."),
    "match": ("International draughts: a match against Moby Dam",
              "Played over DamExchange (DXP) from Moby Dam's 79 two-move ballot openings; every game is saved as PDN "
              "by the command below."),
    "tactics": ("International draughts: tactics beside Moby Dam, and the search on 2 threads",
                "Combinations from master games (`benchmarks/data/draughts_tactics.txt`, each checked by a deeper "
                "search and by Moby Dam): how many each engine finds at the same time a position; then the median "
                "time our search takes to a fixed depth on 1 and on 2 threads, the same positions; then the nodes a "
                "second of each engine's search from the same positions (Moby Dam's log: its own 10 s search)."),
    "movegen": ("Crossword games: move generation and best play beside MAGPIE",
                "The 62 TWL06 positions of `data/scrabble/twl06_bench.cgp` by rack class, µs a position (CPU time); "
                "counts of placements and sums of scores are checked against MAGPIE's. Ratio = MAGPIE's time over ours."),
    "autoplay": ("Crossword games: self-play beside MAGPIE's autoplay",
                 "Equity against equity, game pairs, TWL06; games/s."),
    "sim": ("Crossword games: simulation beside MAGPIE's sim",
            "15 candidates, 2 plies, the same iterations per candidate on both sides; playouts/s."),
    "endgame": ("Crossword games: exact endgames beside MAGPIE's endgame",
                "MAGPIE's own test endgames, the same depth on both sides; solve time and value of each."),
    "analyst": ("Crossword games: rack inference, pre-endgames and game analysis beside MAGPIE",
                "The same positions and game on both sides, MAGPIE's TWL06 word list and leave table for both; "
                "agreement is checked beside the time."),
    "boggle": ("Boggle: scoring beside hybrid-boggle",
               "The same seeded 4×4 boards; the total score of all boards is checked equal first."),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", default=os.environ.get("NUMBA_WORDS_PEERS"),
                    help="the peers' build folder (env NUMBA_WORDS_PEERS)")
    ap.add_argument("--quick", action="store_true", help="small inputs, one round: checks the pipeline, not the speed")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"), help="the page to write")
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"comma-separated sections of {', '.join(SECTIONS)}")
    ap.add_argument("--readme", default=None, metavar="FILE",
                    help="also replace the table between the benchmark markers of FILE (default: README.md on a full "
                         "run of every section, nothing on a --quick or partial one)")
    ap.add_argument("--match-games", type=int, default=158,
                    help="games of the draughts match (default 158: every opening, both colours)")
    ap.add_argument("--match-dir", action="append", default=None, metavar="DIR",
                    help="a draughts match already played into DIR by draughts_match.py --out DIR (its "
                         "summary.json), shown instead of playing one; again for more rows (the first is the "
                         "README's)")
    ap.add_argument("--match-note", default="", metavar="TEXT",
                    help="how the matches of --match-dir were run (the load beside them), printed under the table")
    a = ap.parse_args(argv)
    if not a.peers:
        ap.error("give --peers DIR (the folder the peers kit built) or set NUMBA_WORDS_PEERS")
    peers = str(Path(a.peers).resolve())
    only = [s.strip() for s in a.only.split(",") if s.strip()]
    for s in only:
        if s not in SECTIONS:
            ap.error(f"unknown section {s!r}; known: {', '.join(SECTIONS)}")

    now = datetime.datetime.now(datetime.timezone.utc)
    info = machine()
    failed = []
    body = []
    heads = []
    with tempfile.TemporaryDirectory() as tmpdir:
        cmds = commands(peers, a.quick, Path(tmpdir), a.match_games)
        firsts = {n: shown((c[0] if isinstance(c, list) else c)[0], peers) for n, c in cmds.items()}
        for name in only:
            runs = cmds[name] if isinstance(cmds[name], list) else [cmds[name]]
            rc, out, err, sec = 0, "", "", 0.0
            if name == "match" and a.match_dir:  # (played before: their summaries stand for the run)
                json_out = Path(a.match_dir[0]) / "summary.json"
                d = json.loads(json_out.read_text())
                runs = [(runs[0][0][:2] + ["--mobydam", str(Path(peers) / "mobydam" / "main" / "mobydam"), "--time",
                                           f"{d['time_per_move']:g}", "--games", str(d["games"])]
                         + (["--skip", str(d["skipped"])] if d.get("skipped") else []), json_out)]
                sec = float(d.get("wall_seconds", 0.0))
            for cmd, json_out in runs if not (name == "match" and a.match_dir) else []:
                print(f"== {name}: {shown(cmd, peers)}", file=sys.stderr, flush=True)
                rc1, out1, err1, sec1 = run(cmd)
                rc, out, err, sec = rc or rc1, out + out1, err + err1, sec + sec1
            title, what = TITLES[name]
            body += [f"## {title}", "", what, "",
                     f"Run {now.strftime('%Y-%m-%d %H:%M')} UTC, numba_words `{git_commit(ROOT)}`"
                     + (", quick mode" if a.quick else "") + ".", ""]
            if rc != 0:
                failed.append(name)
                tail = "\n".join((err or out).strip().splitlines()[-15:])
                body += [f"**This comparison failed** (exit status {rc}):", "", "```text", tail, "```", ""]
            else:
                data = json.loads(json_out.read_text()) if json_out and json_out.exists() else {}
                first = shown(runs[0][0], peers) + ((" (one command an endgame: see the Benchmarks page)"
                                                     if name == "endgame" else " (and the next: see the Benchmarks page)")
                                                    if len(runs) > 1 else "")
                heads += [(row[0], row[1], row[2], first if len(row) < 4 else shown(runs[row[3]][0], peers))
                          for row in headline(name, out, data)]
                if name == "draughts":
                    body.append(table_draughts(out, data))
                elif name == "match":
                    more = [json.loads((Path(d) / "summary.json").read_text()) for d in (a.match_dir or [])[1:]]
                    body.append(table_match(out, data, more, a.match_note))
                elif name == "movegen":
                    body.append(table_pipes(out))
                elif name == "boggle":
                    body.append(table_boggle(out, data))
                elif name == "sim":
                    body.append(table_sim(out))
                elif name == "endgame":
                    body.append(table_endgame(out))
                elif name == "analyst":
                    body.append(table_analyst(out))
                else:
                    body.append(table_lines(out))
                body.append("")
            body += [f"Command{'s' if len(runs) > 1 else ''} ({sec:.0f} s):", ""]
            body += [f"    {shown(cmd, peers)}" for cmd, _ in runs] + [""]
    peer_rows = []
    for folder, (repo, what) in PEERS.items():
        peer_rows.append([f"{repo} ({what})", f"`{git_commit(Path(peers) / folder, dirty_flag=False)}`"])
    head = [
        "# Benchmarks",
        "",
        "numba_words beside the best public engine we know for each game, measured on one machine (each section",
        "names its run).",
        "Generated by `python benchmarks/report.py --peers DIR`, where `DIR` holds the peers built from their",
        "public repositories by the peers kit; every table below is replaced as a whole by the next run (history",
        "lives in git).",
        "",
    ]
    if a.quick:
        head += ["!!! warning \"Quick run\"",
                 "    These figures come from `--quick` (small inputs, one round): they check that every comparison",
                 "    runs, and are not the reference figures. The full run takes the reference.", ""]
    head += [
        _md_table(["", ""], [
            ["date (UTC)", now.strftime("%Y-%m-%d %H:%M") + (" (the sections below name their own runs)"
                                                                if only != list(SECTIONS) else "")],
            ["machine", f"{info['cpu']}, {info['cores']} cores, {info['os']}"],
            ["software", f"Python {info['python']}, Numba {info['numba']}, NumPy {info['numpy']}"],
            ["numba_words", f"`{git_commit(ROOT)}`"],
            ["mode", "quick" if a.quick else "full"],
        ], numbers=False),
        "",
        "Peers (repository and commit built):",
        "",
        _md_table(["peer", "commit"], peer_rows, numbers=False),
        "",
    ]
    partial = only != list(SECTIONS)
    if partial and Path(a.out).exists():  # (the sections not re-run stay on the page as they were measured)
        body = merged_sections(Path(a.out).read_text(), body, only)
    Path(a.out).write_text("\n".join(head + body).rstrip() + "\n")
    readme = a.readme or (str(ROOT / "README.md") if not a.quick else None)
    if readme:
        text = Path(readme).read_text()
        if README_START not in text or README_END not in text:
            print(f"{readme}: no benchmark markers; not changed", file=sys.stderr)
        else:
            pre, rest = text.split(README_START, 1)
            post = rest.split(README_END, 1)[1]
            names = {"MAGPIE": "MAGPIE", "mobydam": "Moby Dam", "scan": "Scan", "hybrid-boggle": "hybrid-boggle"}
            built = ", ".join(f"{label} @{git_commit(Path(peers) / folder, dirty_flag=False)}"
                              for folder, label in names.items())
            if partial:  # (the rows of the sections not re-run, or failed, stay as they were measured)
                def key(command):  # (the script and its first word: a section's, whatever its options)
                    return command.split()[:3]

                redone = [key(firsts[n]) for n in only if n not in failed]
                old_rows = [r for r in readme_rows(rest.split(README_END, 1)[0]) if key(r[3]) not in redone]
                order = [f.split()[:2] for f in firsts.values()]  # (by script: a section's rows stay together)
                heads = sorted(old_rows + heads, key=lambda r: order.index(r[3].split()[:2]) if r[3].split()[:2]
                               in order else len(order))
            Path(readme).write_text(pre + readme_table(heads, now.strftime("%Y-%m-%d"), info, built) + post)
            print(f"wrote the benchmark table of {readme}", file=sys.stderr)
    print(f"wrote {a.out}" + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
