"""HTML rendering of a position for notebooks (imported lazily by ``_repr_html_``)."""
from __future__ import annotations

import html as _html

from .generator import COLS, EMPTY, SIZE

COLOURS = {"W": "#e0464a", "w": "#f3a9a0", "L": "#2f7fc1", "l": "#a9d3f0", "*": "#f3a9a0", ".": "#e8e2cc"}
LABELS = {"W": "TW", "w": "DW", "L": "TL", "l": "DL", "*": "&#9733;", ".": ""}


def position_html(pos, highlight=()) -> str:
    """A table: premium squares coloured, tiles cream with their value, blanks' letters in red lower case."""
    hl = set(highlight)
    cell = "width:24px;height:24px;text-align:center;font:11px sans-serif;border:1px solid #fff;padding:0"
    rows = ["<table style='border-collapse:collapse'>", "<tr><td></td>"
            + "".join(f"<td style='{cell}'>{c}</td>" for c in COLS) + "</tr>"]
    for r in range(SIZE):
        tds = [f"<td style='{cell}'>{r + 1}</td>"]
        for c in range(SIZE):
            x = pos.board.letters[r, c]
            sq = pos.variant.layout[r][c]
            if x == EMPTY:
                tds.append(f"<td style='{cell};background:{COLOURS[sq]}'>{LABELS[sq]}</td>")
            else:
                ch = pos.alphabet[x]
                blank = pos.board.blanks[r, c]
                bg = "#ffd75e" if (r, c) in hl else "#f7e7b4"
                colour = "#c00" if blank else "#000"
                val = "" if blank else f"<sub style='font-size:7px'>{pos.variant.values.get(ch, 0)}</sub>"
                tds.append(f"<td style='{cell};background:{bg};color:{colour};font-weight:bold;font-size:14px'>"
                           f"{_html.escape(ch.lower() if blank else ch)}{val}</td>")
        rows.append("<tr>" + "".join(tds) + "</tr>")
    rows.append("</table>")
    rows.append(f"<div style='font:12px monospace'>rack <b>{_html.escape(pos.rack or '-')}</b> &nbsp; scores "
                f"{pos.scores[0]}&ndash;{pos.scores[1]} &nbsp; {_html.escape(pos.variant.name)}</div>")
    return "\n".join(rows)
