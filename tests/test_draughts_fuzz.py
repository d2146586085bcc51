"""Every parser fuzzed: FEN, move notation, PDN text, bitboards. Any input gives a result or a
``NumbaWordsError`` (a ``ValueError`` naming what is wrong), never another exception or a crash; what parses
behaves (FEN round trip, moves generated, the reference generator agrees)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numba_words import NumbaWordsError
from numba_words.draughts import Position, _reference as ref, read_pdn
from numba_words.draughts._tables import bits_of

FEN_CHARS = "WBKwbk0123456789-,:. \"x\u00b2\u0663\n"
MOVE_CHARS = "0123456789x:-!?*# \u00b2K"
PDN_CHARS = '[]{}();$.*-x:0123456789 \n\t"WBEventFENResult\\?!\ufeff'

squares = st.lists(st.integers(1, 50), unique=True, max_size=30)
fuzz = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])


def _fen_like():
    token = st.one_of(st.integers(-5, 60).map(str), st.tuples(st.integers(0, 55), st.integers(0, 55)).map(
        lambda t: f"{t[0]}-{t[1]}"), st.text(FEN_CHARS, max_size=4))
    side = st.lists(st.tuples(st.booleans(), token).map(lambda t: ("K" if t[0] else "") + t[1]), max_size=8)
    return st.builds(lambda turn, w, b, c1, c2: f"{turn}:{c1}{','.join(w)}:{c2}{','.join(b)}",
                     st.sampled_from(["W", "B", "w", "X", ""]), side, side, st.sampled_from(["W", "B", "K", ""]),
                     st.sampled_from(["B", "W", ""]))


@fuzz
@given(st.one_of(st.text(FEN_CHARS, max_size=40), _fen_like(), st.text(max_size=20)))
def test_fen(text):
    try:
        pos = Position.from_fen(text)
    except NumbaWordsError:
        return
    assert Position.from_fen(pos.fen()) == pos
    pieces, white = ref.parse_fen(pos.fen())
    assert {(m.from_square, m.to_square, frozenset(m.captured)) for m in pos.legal_moves} == \
        ref.legal_moves(pieces, white)


@fuzz
@given(st.one_of(st.text(MOVE_CHARS, max_size=12), st.text(max_size=12),
                 st.lists(st.integers(-3, 60), min_size=1, max_size=5).map(lambda s: "x".join(map(str, s))),
                 # capture paths with some landing squares left out (kings of the last two positions)
                 st.lists(st.sampled_from([2, 3, 6, 11, 16, 17, 21, 30, 35, 39, 43, 44, 46, 49]), min_size=2,
                          max_size=5).map(lambda s: "x".join(map(str, s)))),
       st.sampled_from(["W:W31-50:B1-20", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                        "W:WK46:B28,19,10", "B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15",
                        "B:W22,24,27,31,34,40,45,48:BK2,7,15,25"]))
def test_move_notation(text, fen):
    pos = Position.from_fen(fen)
    found = text in pos.legal_moves
    assert isinstance(found, bool)
    try:
        move = pos.parse_move(text)
    except NumbaWordsError:
        return
    assert found and move in list(pos.legal_moves)
    pos.push(move)
    pos.pop()
    assert pos == Position.from_fen(fen)


@fuzz
@given(st.one_of(st.text(PDN_CHARS, max_size=60), st.text(max_size=30),
                 st.lists(st.sampled_from(['[Event "x"]', '[FEN "B:W28,33:B19,K1"]', "1.", "1...", "2.", "32-28",
                                           "19-23", "28x19", "{c}", "{", "}", "(", ")", "2-0", "*", ";x\n", "$1",
                                           "\n", '[Result "1-1"]', "14x23", "33-28"]),
                          max_size=14).map(" ".join)))
def test_pdn_text(text):
    try:
        games = read_pdn(text)
    except NumbaWordsError:
        return
    for g in games:
        end = g.start()
        for m in g.moves:
            end.push(m)
        assert end == g.end()


@fuzz
@given(st.one_of(st.integers(-2, 1 << 65), squares.map(bits_of)), st.one_of(st.integers(-2, 1 << 65), squares.map(bits_of)),
       st.one_of(st.integers(0, (1 << 54) - 1), squares.map(bits_of)), st.one_of(st.booleans(), st.integers(-1, 2)))
def test_from_bitboards(white, black, kings, turn):
    try:
        pos = Position.from_bitboards(white, black, kings, turn)
    except NumbaWordsError:
        return
    assert Position.from_fen(pos.fen()) == pos
    pieces, white_to_move = ref.parse_fen(pos.fen())
    assert {(m.from_square, m.to_square, frozenset(m.captured)) for m in pos.legal_moves} == \
        ref.legal_moves(pieces, white_to_move)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(squares, squares, st.sets(st.integers(1, 50)), st.booleans())
def test_valid_bitboards_agree_with_the_reference(ws, bs, ks, turn):
    """Random boards that pass validation: kernel and reference agree on every move and on perft(2)."""
    from numba_words.draughts import perft

    bs = [s for s in bs if s not in ws]
    kings = [s for s in ks if s in ws or s in bs] + [s for s in ws if s <= 5] + [s for s in bs if s >= 46]
    pos = Position.from_bitboards(bits_of(ws), bits_of(bs), bits_of(kings), turn)
    pieces, white = ref.parse_fen(pos.fen())
    assert perft(pos, 2) == ref.perft(pieces, white, 2)


PARTIAL_FENS = ["W:WK46:B28,19,10", "B:WK2,6,K12,K22,K31,K39,K40,K41,K44,K47,K48,K49:BK3,K15",
                "B:W22,24,27,31,34,40,45,48:BK2,7,15,25"]


@fuzz
@given(st.sampled_from(PARTIAL_FENS), st.data())
def test_pdn_partial_capture_paths(fen, data):
    """A capture in PDN written with any subset of its landing squares (as other programs write them): read as the
    one legal move whose path holds them in order, refused (a DraughtsError naming the move) only when several
    legal moves do. The truth: the legal moves' full paths."""
    from numba_words.draughts import DraughtsError

    pos = Position.from_fen(fen)
    move = data.draw(st.sampled_from([m for m in pos.legal_moves if m.captured]))
    inner = data.draw(st.lists(st.booleans(), min_size=len(move.path) - 2, max_size=len(move.path) - 2))
    squares = [move.path[0], *(s for s, keep in zip(move.path[1:-1], inner) if keep), move.path[-1]]

    def holds(path):  # the written squares, in order, on the path: first and last at its ends
        it = iter(path[1:-1])
        return path[0] == squares[0] and path[-1] == squares[-1] and all(s in it for s in squares[1:-1])

    fits = {(m.from_square, m.to_square, frozenset(m.captured)) for m in pos.legal_moves if m.captured and holds(m.path)}
    text = f'[FEN "{fen}"]\n{"1..." if fen[0] == "B" else "1."} {"x".join(map(str, squares))} *'
    try:
        (game,) = read_pdn(text)
    except DraughtsError as e:
        assert len(fits) > 1 and 0 < len(str(e)) < 400, (text, fits, str(e))
        return
    (got,) = game.moves
    assert len(fits) == 1 and {(got.from_square, got.to_square, frozenset(got.captured))} == fits, (text, fits)
