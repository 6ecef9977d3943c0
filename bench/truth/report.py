"""The printed tables: every figure for the tuning part and the frozen part side by side."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable

from bench.truth.corpus import Text
from bench.truth.run import Tally
from bench.truth.tables import KINDS as TABLE_KINDS

PARTS = ("tuning", "frozen")
CUT_PRECISION = 0.995  # a family below this may not cut by itself: its binding judgements are suspect
# Injection kinds as a reporter would name the error.
INJECTED = {
    "digit": "digit changed",
    "unit": "unit changed (만↔억, %↔%p)",
    "swap": "figures swapped between subjects",
    "before_after": "before/after swapped",
    "total_part": "total and part exchanged",
    "direction": "direction word flipped",
    "subject": "subjects exchanged, no figure moving",
    "date": "date changed",
    "hangul": "Hangul numeral changed",
    "added": "figure added that the text lacks",
    "table-changed": "table cell's digit changed",
    "table-swapped": "table cell given another cell of its row",
}
REWRITES = {
    "separators": "thousands separators on/off",
    "magnitude": "만/억/조 forms",
    "percent": "% ↔ 퍼센트, %p ↔ %포인트",
    "native": "Hangul numerals (세 곳)",
    "rounding": "rounded with 약/여/가량",
    "spacing": "spacing (1200억 원 ↔ 1200억원)",
    "dates": "date forms (지난 5일, 2024.3.5., 지난해)",
    "lead": "announcement day in the lead",
    "brackets": "brackets dropped",
    **{f"table:{kind}": f"table cell, unit from {label}" for kind, label in TABLE_KINDS.items()},
}


def _ratio(hit: int, total: int) -> str:
    return f"{hit}/{total} ({hit / total:.1%})" if total else "–"


def _row(label: str, cell: Callable[[Tally], str], parts: dict[str, Tally]) -> str:
    return f"| {label} | " + " | ".join(cell(parts[p]) for p in PARTS) + " |"


def _header(title: str) -> list[str]:
    return ["", f"### {title}", "", f"| measure | {' | '.join(PARTS)} |", "|" + " --- |" * (len(PARTS) + 1)]


def render(parts: dict[str, Tally], texts: list[Text]) -> str:
    lines = [_corpus(texts)]
    lines += _faithful(parts)
    lines += _injected(parts)
    lines += _families(parts)
    lines += _missing(parts)
    return "\n".join(lines)


def _corpus(texts: list[Text]) -> str:
    by = Counter((t.part, t.kind) for t in texts)
    sources = {p: len({t.source for t in texts if t.part == p}) for p in PARTS}
    cells = [f"{by[p, 'release']} releases + {by[p, 'news']} news, {sources[p]} sources" for p in PARTS]
    return f"texts: tuning {cells[0]}; frozen {cells[1]}"


def _faithful(parts: dict[str, Tally]) -> list[str]:
    lines = _header("Faithful rewrites: a flag added to a true sentence")
    lines.append(
        _row("original sentences with any flag", lambda t: _ratio(t.originals_flagged, t.originals), parts)
    )
    for kind, label in REWRITES.items():
        lines.append(
            _row(f"rewrite: {label}", lambda t, k=kind: _ratio(t.faithful_flagged[k], t.faithful[k]), parts)
        )
    lines.append(
        _row(
            "all rewrites flagged",
            lambda t: _ratio(sum(t.faithful_flagged.values()), sum(t.faithful.values())),
            parts,
        )
    )
    lines.append(
        _row(
            "rewrites marked contradicted",
            lambda t: _ratio(sum(t.contradicted.values()), sum(t.faithful.values())),
            parts,
        )
    )
    lines.append(
        _row(
            "rewrites marked suspect only (to the verifier, not cut)",
            lambda t: _ratio(sum(t.suspect.values()), sum(t.faithful.values())),
            parts,
        )
    )
    return lines


def _injected(parts: dict[str, Tally]) -> list[str]:
    lines = _header("Injected errors caught (one error per case)")
    for kind, label in INJECTED.items():
        lines.append(_row(label, lambda t, k=kind: _ratio(t.caught[k], t.injected[k]), parts))
    lines.append(
        _row("all errors", lambda t: _ratio(sum(t.caught.values()), sum(t.injected.values())), parts)
    )
    return lines


def _families(parts: dict[str, Tally]) -> list[str]:
    lines = [
        "",
        "### Rule families (derived from the reason each finding gives)",
        "",
        "precision = flags on injected errors / all flags; recall = errors this family caught / all"
        " injected errors; let through = facts it confirmed on a sentence whose error was missed;"
        " flags are split by strength (contradicted: cut by code whatever the verifier brings;"
        " suspect: settled by the verifier, kept and marked without one; the rest are not_found);"
        " may cut = precision"
        f" ≥ {CUT_PRECISION:.1%}, the bar for `contradicted`",
        "",
        "| family | part | false flags (contradicted/suspect) | true flags (contradicted/suspect)"
        " | precision | recall"
        " | may cut | let through |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    families = sorted(
        {f for t in parts.values() for f in (*t.family_fp, *t.family_tp, *t.family_let_through)}
    )
    for family in families:
        for part in PARTS:
            t = parts[part]
            fp, tp, through = t.family_fp[family], t.family_tp[family], t.family_let_through[family]
            precision = f"{tp / (tp + fp):.1%}" if tp + fp else "–"
            errors = sum(t.injected.values())
            recall = f"{tp / errors:.1%}" if errors and tp else "–"
            may_cut = ("yes" if tp / (tp + fp) >= CUT_PRECISION else "no") if tp + fp else "–"
            false = _strengths(fp, t.family_fp_status, family)
            true = _strengths(tp, t.family_tp_status, family)
            lines.append(
                f"| {family} | {part} | {false} | {true} | {precision} | {recall} | {may_cut} | {through} |"
            )
    return lines


def _strengths(total: int, by_status: Counter[tuple[str, str]], family: str) -> str:
    return f"{total} ({by_status[family, 'contradicted']}/{by_status[family, 'suspect']})"


def _mean(values: list[int]) -> str:
    if not values:
        return "–"
    listing = sum(1 for v in values if v)
    return f"{statistics.mean(values):.2f} (max {max(values)}; {listing}/{len(values)} list any)"


def _missing(parts: dict[str, Tally]) -> list[str]:
    lines = _header("Missing facts")
    lines.append(_row("listed: the text as its own article (want 0)", lambda t: _mean(t.own_listed), parts))
    lines.append(
        _row("listed: every factual sentence rewritten (want 0)", lambda t: _mean(t.rewritten_listed), parts)
    )
    lines.append(
        _row(
            "listed: release framed by contact/date/byline lines (want 0)",
            lambda t: _mean(t.wrapped_listed),
            parts,
        )
    )
    lines.append(_row("listed: text minus one sentence", lambda t: _mean(t.dropped_listed), parts))
    lines.append(
        _row("removed sentence listed (recall)", lambda t: _ratio(t.dropped_named, t.dropped), parts)
    )
    lines.append(
        _row(
            "removed lead listed (lead recall; leads restated elsewhere apart)",
            lambda t: _ratio(t.leads_named, t.leads),
            parts,
        )
    )
    lines.append(
        _row(
            "removed lead restated elsewhere in the text: listed anyway",
            lambda t: _ratio(t.leads_restated_named, t.leads_restated),
            parts,
        )
    )
    lines.append(
        _row(
            "removed lead listed, every lead (before the restated ones were set apart)",
            lambda t: _ratio(t.leads_named + t.leads_restated_named, t.leads + t.leads_restated),
            parts,
        )
    )
    lines.append(
        _row(
            "framed releases: listed facts that are boilerplate",
            lambda t: _ratio(t.frame_boilerplate, t.frame_listed),
            parts,
        )
    )
    lines.append(
        _row(
            "other cases: listed facts that are boilerplate", lambda t: _ratio(t.boilerplate, t.listed), parts
        )
    )
    lines.append(
        _row("other cases: listed facts that are fragments", lambda t: _ratio(t.fragments, t.listed), parts)
    )
    return lines
