"""``numba-words bookworm``: the verbs, the old flag forms, errors."""
import pytest

from numba_words.bookworm.cli import legacy_args
from numba_words.cli import main

TEXT = "nnloner ceunount fndeadu olledlit lusjigg oliqrxki slriagy"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("old", [[TEXT, "--top", "3"], ["solve", TEXT, "--top", "3"]])
def test_solve(capsys, old):
    code, out, err = run(capsys, "bookworm", *old)
    assert code == 0 and "187 words" in out and "squills" in out and "solved in" in err
    assert len([line for line in out.splitlines() if line.split()[0].isdigit() and len(line.split()) > 2 and line.split()[2].isdigit()]) == 3


def test_bench_and_errors(capsys):
    code, out, _ = run(capsys, "bookworm", "--random", "30", "--bench")
    assert code == 0 and "boards/s" in out and "plain Python" in out and "same words: yes" in out
    code, _, err = run(capsys, "bookworm", "abc")
    assert code == 2 and "has 1 columns" in err
    code, _, err = run(capsys, "bookworm", TEXT, "--max-len", "1")
    assert code == 2 and "below min_len" in err


def test_random_and_play(capsys):
    code, out, _ = run(capsys, "bookworm", "random", "5", "--grid", "boggle4")
    assert code == 0 and len(out.splitlines()) == 5 and out.startswith("0: ")
    code, out2, _ = run(capsys, "bookworm", "--random", "5", "--grid", "boggle4")
    assert code == 0 and out2 == out
    code, out, _ = run(capsys, "bookworm", "random", "4", "--grid", "boggle4", "--score-only")
    assert code == 0 and out.count("points") == 4
    code, out, _ = run(capsys, "bookworm", "play", "--seed", "3", "--max-turns", "4")
    assert code == 0 and "4 turns" in out.splitlines()[-1]


def test_legacy_rewrite():
    assert legacy_args([TEXT, "--top", "3"]) == ["solve", TEXT, "--top", "3"]
    assert legacy_args(["--lexicon", "twl06", TEXT]) == ["solve", "--lexicon", "twl06", TEXT]
    assert legacy_args(["--random", "9", "--bench", "--score-only"]) == ["bench", "9", "--score-only"]
    assert legacy_args(["--random=9"]) == ["random", "9"]
    assert legacy_args(["solve", TEXT]) == ["solve", TEXT]
    assert legacy_args(["--json", "play"]) == ["--json", "play"]
    assert legacy_args([]) == []


def test_no_verb_prints_help(capsys):
    code, out, _ = run(capsys, "bookworm")
    assert code == 2 and "solve" in out and "bench" in out


def _lexicons(tmp_path):
    from numba_words import Lexicon

    words = tmp_path / "three.txt"
    words.write_text("cat\ndog\nbird\n")
    return [Lexicon.load("nb-small"),                                       # 29 letters, 6-letter max
            Lexicon.load(words),                                            # three words
            Lexicon.load(["ABBA", "BAAB", "ABC", "CAB"], alphabet="ABC"),   # no Q, no U, no example letters
            Lexicon.load(["ΑΒΓ", "ΓΑΒ"], alphabet="ΑΒΓΔ"),                  # no letter of the frequency table
            Lexicon.load(["ZZZ"])]                                          # a board with no words at all


def test_tour_on_any_lexicon(tmp_path):
    from numba_words.bookworm.cli import tour

    for lex in _lexicons(tmp_path):
        lines = []
        tour(lex, lines.append)
        text = "\n".join(lines)
        assert "kernels ready" in text and text.count("boards/s on 1 thread") == 2, text
        assert "disagree" not in text, text
