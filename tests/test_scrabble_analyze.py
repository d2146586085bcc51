"""Game analysis: each static turn's verdict against a plain ranking of every play and exchange, pre-endgame and
endgame turns against the solvers called directly, the same verdicts from the game and from its GCG text, and
the report's forms (JSON, CSV, SVG, HTML)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from numba_words.scrabble import Position, play_game, read_gcg
from numba_words.scrabble.analyze import analyze_game
from numba_words.scrabble.errors import InvalidGcgError, ScrabbleError
from numba_words.scrabble.leaves import exchange_options

MAGPIE_GCGS = Path(__file__).resolve().parent / "data" / "gcg" / "magpie"
FAST = {"peg_max": 1, "peg_candidates": 2, "peg_stages": ((1, 2),), "endgame_plies": 2}


@pytest.fixture(scope="module")
def game():
    return play_game(seed=4)


@pytest.fixture(scope="module")
def analysis(game):
    return analyze_game(game, threads=1, **FAST)


def test_static_turns_match_plain_ranking(analysis):
    static = [t for t in analysis.turns if t.kind == "static"]
    assert len(static) >= 10
    for t in static[:12]:
        pos = Position.from_cgp(t.cgp)
        eqs = [round(p.equity * 1000) for p in pos.legal_plays()] + [round(e.equity * 1000)
                                                                    for e in exchange_options(pos)]
        assert round(t.value_best * 1000) == max(eqs), t
        made = pos.parse_play(t.move)
        assert round(t.value_made * 1000) == round(made.equity * 1000)
        assert t.loss == pytest.approx(max(eqs) / 1000 - made.equity, abs=1e-3)


def test_late_turns_use_the_solvers(analysis):
    from numba_words.scrabble.endgame import _after, solve_endgame
    from numba_words.scrabble.peg import peg

    kinds = {t.kind for t in analysis.turns}
    assert "endgame" in kinds
    for t in analysis.turns:
        if t.kind == "endgame":
            pos = Position.from_cgp(t.cgp)
            pos.opp_rack = "".join(pos.unseen().elements())
            assert t.value_best == solve_endgame(pos, plies=2).value
            assert t.bag == 0
            if t.move == t.best:  # the engine's own move: no second search, no loss
                assert (t.value_made, t.loss) == (t.value_best, 0)
            elif not t.move.startswith("-"):
                made = pos.parse_play(t.move)
                after = _after(pos, made)
                if after.opp_rack:
                    assert t.value_made == made.score - solve_endgame(after, plies=2).value
        if t.kind == "peg":
            pos = Position.from_cgp(t.cgp)
            made = None if t.move == "-" else t.move  # (the move made ranked in the same run)
            r = peg(pos, candidates=2, stages=((1, 2),), exact=False, threads=1, include=[made])
            assert t.value_best == r.candidates[0].win and t.bag == 1
            assert t.value_made == next(c.win for c in r.candidates if c.notation == (made and
                                        pos.parse_play(made).notation or "pass"))
            assert t.value_made <= t.value_best


def test_gcg_text_gives_the_same_verdicts(game, analysis):
    text = game.gcg(("ann", "bob"))
    again = analyze_game(text, threads=2, **FAST)
    assert [(t.move, t.kind, t.best, t.loss) for t in again.turns] == [(t.move, t.kind, t.best, t.loss)
                                                                      for t in analysis.turns]
    assert again.names == ("ann", "bob")


def test_totals_mistakes_and_forms(analysis):
    tot = analysis.totals()
    for p in (0, 1):
        pts = sum(t.loss for t in analysis.turns if t.player == p and t.loss and t.kind != "peg")
        assert tot[p]["equity_lost"] == pytest.approx(pts, abs=1e-2)
    m = analysis.mistakes()
    keys = [t.loss * (100 if t.kind == "peg" else 1) for t in m]
    assert keys == sorted(keys, reverse=True) and all(k > 0 for k in keys)
    doc = json.loads(json.dumps(analysis.to_json()))
    assert isinstance(doc["turns"], list) and len(doc["turns"]) == len(analysis.turns)
    assert analysis.to_csv().count("\n") == len(analysis.turns) + 1
    assert analysis.svg().startswith("<svg") and "<table>" in analysis.html()
    pos = analysis.position(3)
    assert pos.rack == analysis.turns[2].rack
    with pytest.raises(ScrabbleError):
        analysis.position(0)


def test_analyze_command(game, tmp_path, capsys):
    from numba_words.cli import main

    f = tmp_path / "g.gcg"
    f.write_text(game.gcg())
    html = tmp_path / "r.html"
    assert main(["scrabble", "analyze", str(f), "--json", "--peg-max", "1", "--endgame-plies", "1", "--threads", "1",
                 "--html", str(html)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["turns"]) == len(game.moves) and "<svg" in html.read_text()
    assert main(["scrabble", "analyze", str(tmp_path / "missing.gcg")]) == 2


def test_bad_input(game):
    with pytest.raises(ScrabbleError):
        analyze_game(42)
    with pytest.raises(ScrabbleError):
        analyze_game(game, sim=-1)
    with pytest.raises(ScrabbleError):
        analyze_game(game, peg_max=7)
    with pytest.raises(ScrabbleError, match="endgame_time"):
        analyze_game(game, endgame_time=0)
    with pytest.raises(ScrabbleError, match="peg_time"):
        analyze_game(game, peg_time=-1)
    with pytest.raises(InvalidGcgError):
        analyze_game(">a: ABC 8D ZZZZZZZZZZZZZZZZZZZZ +1 1\n")


def _suite():
    """The games of MAGPIE's GCG test suite that MAGPIE reads (tests/data/gcg/magpie_expected.tsv)."""
    table = MAGPIE_GCGS.parent / "magpie_expected.tsv"
    rows = [line.split("\t") for line in table.read_text().splitlines() if line and not line.startswith("#")]
    return sorted(MAGPIE_GCGS / f"{name}.gcg" for name, outcome, *_ in rows if outcome == "accept")


def test_magpie_suite_games(tmp_path, capsys, twl):
    """Every game of MAGPIE's GCG test suite that MAGPIE reads is analysed by the command line as a folder
    (static and endgame turns, the endgame to one ply: quick): each game's turns, one at least per tile placement
    read strictly, none with a negative loss but where the endgame's depth limit allows it; a file it cannot read is
    named as skipped. MAGPIE's tests run with a lexicon configured: TWL06 stands in."""
    from numba_words.cli import main

    games = _suite()
    for path in games:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "zz_unreadable.gcg").write_text(">a: ABC 8D ZZZZZZZZZZZZZZZZZZZZ +1 1\n")
    assert main(["scrabble", "analyze", str(tmp_path), "--lexicon", "twl06", "--no-peg", "--endgame-plies", "1",
                 "--threads", "1", "--json", "--quiet", "--skip-invalid"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [g["file"] for g in out["games"]] == [p.name for p in games] and out["skipped"] == ["zz_unreadable.gcg"]
    for path, g in zip(games, out["games"]):
        placements = len(read_gcg(path, lexicon=twl, strict=True)) - 1
        assert len(g["turns"]) >= placements, path.name
        assert all(t["loss"] is None or t["loss"] >= -1e-9 or t["kind"] == "endgame" for t in g["turns"]), path.name


def test_analyze_games_on_a_dask_cluster(game, analysis, tmp_path, twl):
    """A folder of games over an in-process Dask cluster: each game's verdicts those of :func:`analyze_game` run
    here, in folder order; positions rebuilt from the turns' CGP; an unreadable game named, or skipped."""
    distributed = pytest.importorskip("distributed")
    from numba_words.scrabble import analyze_games

    (tmp_path / "a.gcg").write_text(game.gcg(("ann", "bob")))
    small = sorted(_suite(), key=lambda p: p.stat().st_size)[0]
    (tmp_path / "b.gcg").write_text(small.read_text())
    here = [analyze_game(tmp_path / "b.gcg", lexicon=twl, peg=False, endgame_plies=1, threads=1)]
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as c, \
            distributed.Client(c) as client:
        got = analyze_games(tmp_path, client=client, lexicon="twl06", **FAST)
        assert [(t.move, t.kind, t.best, t.loss) for t in got[0].turns] == [(t.move, t.kind, t.best, t.loss)
                                                                           for t in analysis.turns]
        assert got[0].names == ("ann", "bob")
        assert got[0].position(3).cgp() == analysis.position(3).cgp()
        other = analyze_games([tmp_path / "b.gcg"], client=client, lexicon=twl, peg=False, endgame_plies=1)
        assert other[0].to_records() == here[0].to_records()
        (tmp_path / "c.gcg").write_text(">a: ABC 8D ZZZZZZZZZZZZZZZZZZZZ +1 1\n")
        with pytest.raises(InvalidGcgError, match="c.gcg"):
            analyze_games([tmp_path / "c.gcg"], client=client, lexicon=twl)
        assert analyze_games([tmp_path / "c.gcg"], client=client, lexicon=twl, skip_invalid=True) == [None]
    assert analyze_games([tmp_path / "b.gcg"], lexicon=twl, peg=False, endgame_plies=1)[0].to_records() \
        == here[0].to_records()
    with pytest.raises(ScrabbleError):
        analyze_games([], client=None)
    with pytest.raises(ScrabbleError):
        analyze_games(tmp_path, speed=3)


def test_analyze_command_on_a_folder(game, tmp_path, capsys):
    """A folder of games (the first turns of a game, cut at two lengths) from the command line: one entry a file,
    in name order, each the verdicts of analyze_game on that file."""
    from numba_words.cli import main

    lines = game.gcg(("ann", "bob")).splitlines()
    head = [ln for ln in lines if not ln.startswith(">")]
    moves = [ln for ln in lines if ln.startswith(">")]
    for name, n in (("b.gcg", 3), ("a.gcg", 5)):
        (tmp_path / name).write_text("\n".join(head + moves[:n]) + "\n")
    assert main(["scrabble", "analyze", str(tmp_path), "--json", "--threads", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [g["file"] for g in doc["games"]] == ["a.gcg", "b.gcg"]
    for g in doc["games"]:
        want = analyze_game(tmp_path / g["file"], threads=1)
        assert g["turns"] == want.to_records() and len(g["turns"]) == {"a.gcg": 5, "b.gcg": 3}[g["file"]]
    assert main(["scrabble", "analyze", str(tmp_path), "--html", str(tmp_path / "r.html")]) == 2


def test_simulated_analysis_judges_the_first_move_by_static_equity(game):
    """With ``sim``, the first move (an empty board, which the simulator refuses: its plays are all symmetric) is
    judged by static equity, the next by simulation, the made move simulated beside the candidates."""
    lines = game.gcg(("ann", "bob")).splitlines()
    moves = [ln for ln in lines if ln.startswith(">")]
    text = "\n".join([ln for ln in lines if not ln.startswith(">")] + moves[:2]) + "\n"
    res = analyze_game(text, sim=4, sim_candidates=2, threads=1)
    assert res.turns[0].kind == "static" and res.turns[0].loss == analyze_game(text, threads=1).turns[0].loss
    assert res.turns[1].kind == "sim" and res.turns[1].loss is not None and res.turns[1].loss >= 0
