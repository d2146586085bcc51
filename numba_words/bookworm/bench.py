"""Throughput, always beside the plain-Python baseline (:mod:`._reference`) measured in the same run on the
same boards, which must agree with the kernels. Used by ``numba-words bookworm bench``, the tour and the
pytest benchmarks.
"""
from __future__ import annotations

import numba

from .. import _timing
from ._reference import Reference, boggle_points as reference_points, neighbour_lists
from ._tables import code_letters
from .search import boggle_scores, random_codes, solve_many


def reference(lex, min_len: int = 3, max_len: int = 12) -> Reference:
    """The plain-Python baseline solver for ``lex`` (building its prefix set takes a second or two)."""
    return Reference(lex.words, min_len, max_len)


def _letter_lists(codes, lex) -> list:
    return [[code_letters(int(c), lex) for c in row] for row in codes]


def _throughput(lex, grid, n, seed, run, agrees, ref, baseline_boards, threads=(1, None)) -> tuple:
    """Boards/s of ``run(codes, threads)`` for each thread count (``None``: all; the fastest of 3 calls), and of
    the plain-Python
    solver on the first ``baseline_boards`` boards, where ``agrees(out, b, words)`` checks the kernel
    against it."""
    codes = random_codes(n, grid=grid, lexicon=lex, seed=seed)
    res = {}
    out = None
    for th in threads:
        run(codes[:4], th)  # compile or load the cache, outside the timing
        label = f"{th or numba.get_num_threads()} thread{'' if th == 1 else 's'}"
        if th is None and label in res:
            continue
        box = []
        # the fastest of 3 (one call was 0.5-1.0x of it with 2 threads on a quiet 2-core virtual machine)
        res[label] = n / _timing.best_of(lambda: box.append(run(codes, th)), repeats=3, warmup=False)
        out = box[0]
    nbrs = neighbour_lists(grid)
    m = min(n, baseline_boards)
    letters = _letter_lists(codes[:m], lex)
    found = []
    res["python"] = m / _timing.once(lambda: found.extend(ref.solve(letters[b], nbrs) for b in range(m)))
    res["agree"] = all(agrees(out, b, words) for b, words in enumerate(found))
    return res, out


def _reference(lex, min_len, max_len, given) -> tuple:
    """The plain-Python solver (``given`` or a new one) and the seconds it took to build."""
    box = [given]
    build = 0.0 if given is not None else _timing.once(lambda: box.__setitem__(0, reference(lex, min_len, max_len)))
    return box[0], build


def measure(lex, grid, n, seed=0, min_len=3, max_len=12, baseline_boards=20, reference_solver=None,
            threads=(1, None)) -> dict:
    """Boards/s of full word lists (:func:`solve_many`) on 1 thread and all threads, and of the plain-Python
    solver on the first boards (the word sets must agree). Keys: one ``"<k> thread(s)"`` per thread count,
    ``python``, ``agree``, ``python_build_s``, ``words_per_board``."""
    ref, build = _reference(lex, min_len, max_len, reference_solver)
    res, out = _throughput(
        lex, grid, n, seed,
        lambda codes, th: solve_many(codes, lex, grid=grid, min_len=min_len, max_len=max_len, threads=th),
        lambda out, b, words: sorted(words) == sorted(out[b].words), ref, baseline_boards, threads)
    res["python_build_s"] = build
    res["words_per_board"] = out.total_words / n
    return res


def measure_scores(lex, grid, n, seed=0, min_len=3, baseline_boards=20, reference_solver=None,
                   threads=(1, None)) -> dict:
    """Boards/s of the score-only mode (:func:`boggle_scores`, every word length) on 1 thread and all
    threads, and of the plain-Python solver scoring its word sets on the first boards (must agree)."""
    ref, build = _reference(lex, min_len, lex.max_len, reference_solver)
    res, out = _throughput(
        lex, grid, n, seed,
        lambda codes, th: boggle_scores(codes, lex, grid=grid, min_len=min_len, threads=th),
        lambda out, b, words: int(out[b]) == sum(reference_points(w) for w in words), ref, baseline_boards,
        threads)
    res["python_build_s"] = build
    res["mean_score"] = float(out.mean())
    return res


def report(r, what: str = "words") -> list:
    """Lines of a throughput report from :func:`measure` / :func:`measure_scores`."""
    lines = []
    for k, v in r.items():
        if k.endswith("thread") or k.endswith("threads"):
            lines.append(f"  numba {k:<10} {v:>12,.0f} boards/s   ({v / r['python']:,.0f}x plain Python)")
    lines.append(f"  plain Python     {r['python']:>12,.1f} boards/s   (prefix set built in "
                 f"{r['python_build_s']:.2f} s; same {what}: {'yes' if r['agree'] else 'NO'})")
    return lines
