"""Markdown tables for one result file, read in that file's own layout (nothing is computed that it lacks)."""

from __future__ import annotations

from collections.abc import Callable

from .results import Result


def sig(x: float | None, digits: int = 3) -> str:
    """``x`` to ``digits`` significant figures, plain notation (``1.20``, ``156``, ``0.0740``); ``-`` for None."""
    if x is None:
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 10 ** (digits - 1):
        return f"{x:.0f}"
    s = f"{x:#.{digits}g}"
    if "e" in s:
        return f"{x:.{digits - 1}e}"
    return s.rstrip(".")


def table(header: list[str], rows: list[list[object]]) -> str:
    """A GitHub markdown table (``|`` inside cells escaped), ending without a blank line."""
    def cell(c: object) -> str:
        return str(c).replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else sig(seconds * 1e3)


# -- one renderer per layout -------------------------------------------------------------------
def gemm_cpu(r: Result) -> str:
    rows = r.data.get("rows", [])
    mp = [x for x in rows if x.get("op") == "min_plus"]
    bl = [x for x in rows if x.get("op") != "min_plus"]
    out = ["Rates are semiring multiply-adds per second (n^3 / median time); \"ours against this\" is our "
           "float32 min-plus rate over this row's rate.", ""]
    out.append(table(["implementation", "dtype", "n", "median s", "G ops/s", "ours f32 against this", "same result",
                      "note"],
                     [[x["impl"], x["dtype"], x["n"], sig(x["seconds"]), f"{x['gops']:.1f}",
                       f"{x['ours_over_this']:.1f}x" if "ours_over_this" in x else "-",
                       "" if x.get("matches_ours") is None else ("yes" if x["matches_ours"] else "NO"),
                       x.get("note", "")] for x in mp]))
    if bl:
        out += ["", "Boolean (lor_land) products, bit-packed:", ""]
        out.append(table(["input", "n", "median s", "T bool-ops/s", "against our f32 min-plus rate"],
                         [[x.get("note", ""), x["n"], sig(x["seconds"]), f"{x['gops'] / 1e3:.2f}",
                           f"{x['ours_over_this']:.0f}x" if "ours_over_this" in x else "-"] for x in bl]))
    return "\n".join(out)


SWEEP = ("ours (non-negative input)", "ours (general kernel)", "cupy_broadcast")


def gemm_gpu(r: Result) -> str:
    d = r.data
    ceil = d.get("ceilings", {})
    out = ["Measured ceilings (one `min(x + y, z)` instruction pair, registers only, all SMs busy): "
           + ", ".join(f"{k} {v / 1e12:.2f} T/s" for k, v in ceil.items()) + ".", ""]
    rows = d.get("rows", [])
    sweep = [x for x in rows if x.get("variant") in SWEEP and x.get("dtype") == "float32"]
    sizes = sorted({x["n"] for x in sweep})
    if sizes:
        out += ["float32 min-plus, n sweep (ms, and the rate as a fraction of the fp32 ceiling):", ""]
        body = []
        for n in sizes:
            cells: list[object] = [n]
            got = {x["variant"]: x for x in sweep if x["n"] == n}
            for v in SWEEP:
                x = got.get(v)
                cells.append("-" if x is None else f"{x['seconds'] * 1e3:.2f} ({x['fraction_of_ceiling']:.1%})")
            base, ours = got.get("cupy_broadcast"), got.get(SWEEP[0])
            cells.append(f"{base['seconds'] / ours['seconds']:.0f}x" if base and ours else "-")
            body.append(cells)
        out.append(table(["n", "ours, non-negative input", "ours, general kernel", "CuPy broadcast",
                          "ours (non-negative) against CuPy"], body))
        out.append("")
    rest = [x for x in rows if x not in sweep]
    if rest:
        out += ["Other semirings, dtypes, the witness, lazy min, Boolean and streamed products:", ""]
        body = []
        for x in rest:
            frac = f"{x['fraction_of_ceiling']:.1%}" if x.get("fraction_of_ceiling") else ""
            if "fraction_of_in_core" in x:
                frac += f" ({x['fraction_of_in_core']:.1%} of in-core, same kernel)"
            body.append([x["semiring"], x["dtype"], x["n"], x["variant"], f"{x['seconds'] * 1e3:.2f}",
                         f"{x['tops']:.3f}", frac])
        out.append(table(["semiring", "dtype", "n", "variant", "ms", "T/s", "of ceiling"], body))
    if d.get("command"):
        out += ["", f"Command: `{d['command']}`" + (f"; CuPy {d['cupy']}" if d.get("cupy") else "")]
    return "\n".join(out)


def apsp_cpu(r: Result) -> str:
    d = r.data
    out = [f"Dense and degree-12 random digraphs, n = {d.get('n')}; the NumPy/NetworkX reference loops at "
           f"n = {d.get('small_n')}; speed-ups against the SciPy row of the same input.", ""]
    out.append(table(["input", "method", "seconds", "speed-up", "check"], d.get("table", [])))
    return "\n".join(out)


GPU_METHODS = ("rkleene", "blocked-fw", "squaring", "rkleene/fw-below-1024")


def apsp_gpu(r: Result) -> str:
    d = r.data
    ceil = d.get("ceiling_min_plus_per_s")
    out = [f"float32, matrix already on the device; fp32 min-plus ceiling {ceil / 1e12:.2f} T/s "
           f"({d.get('ceiling_source', 'source not recorded')}). Milliseconds (fraction of the ceiling).", ""
           ] if ceil else []
    for kind in dict.fromkeys(x["kind"] for x in d.get("runs", [])):
        runs = [x for x in d["runs"] if x["kind"] == kind]
        body = []
        for x in runs:
            cells: list[object] = [x["n"]]
            for m in GPU_METHODS:
                v = x.get(m, {})
                cells.append(f"{v['seconds'] * 1e3:.1f} ({v['fraction_of_ceiling']:.0%})" if "seconds" in v
                             else ("error" if "error" in v else "-"))
            cu = x.get("cupy_rank1_fw", {}).get("seconds")
            cells.append("-" if cu is None else f"{cu * 1e3:.1f}")
            rk = x.get("rkleene", {}).get("seconds")
            cells.append(f"{cu / rk:.0f}x" if cu and rk else "-")
            cells.append(f"{x.get('h2d_s', 0) * 1e3:.1f} / {x.get('d2h_s', 0) * 1e3:.1f}")
            body.append(cells)
        out += [f"Input `{kind}`:", ""]
        out.append(table(["n", *GPU_METHODS, "CuPy rank-1 FW loop", "rkleene against CuPy",
                          "copies in / out ms (not in the times)"], body))
        out.append("")
    ooc = d.get("out_of_core")
    if ooc:
        out.append(f"Out-of-core: n = {ooc['n']}, memory budget {ooc['budget'] >> 20} MiB (half the matrix): "
                   f"{ooc['seconds']:.3f} s streamed against {ooc['in_core_seconds_with_copies']:.3f} s in core "
                   f"(both with copies), {ooc['fraction_of_in_core_rate']:.0%} of the in-core rate.")
    return "\n".join(out)


def traversal_cpu(r: Result) -> str:
    d = r.data
    out = [f"Per-source medians over {d.get('sources', '?')} random non-isolated sources; every result checked "
           "against SciPy's.", ""]
    body = [[x["graph"], x["op"], _ms(x["ours_s"]), _ms(x.get("scipy_s")),
             "-" if not x.get("speedup") else f"{x['speedup']:.2f}x", f"{x['ours_gteps']:.3f}", x.get("note", "")]
            for x in d.get("rows", [])]
    out.append(table(["graph", "operation", "ours ms", "SciPy ms", "SciPy / ours", "ours GTEPS", "note"], body))
    return "\n".join(out)


def traversal_gpu(r: Result) -> str:
    body = []
    for x in r.data.get("rows", []):
        against = ""
        if "vs_cusparse" in x:
            against = f"{x['vs_cusparse']:.0%} of cuSPARSE"
        elif "vs_floor" in x:
            against = f"{x['vs_floor']:.2f}x the floor ({x['launch_readback_us']:.1f} us launch + read-back x levels)"
        body.append([x["what"], f"{x['seconds'] * 1e3:.3f}", f"{x['rate']:.2f} {x['unit']}", against])
    return table(["what", "ms", "rate", "against"], body)


def _mst_table(rows: list[dict]) -> str:
    return table(["graph", "n", "edges", "implementation", "median ms", "M edges/s", "speed-up against SciPy"],
                 [[x["graph"], x["n"], x["edges"], x["impl"], sig(x["seconds"] * 1e3),
                   f"{x['edges'] / x['seconds'] / 1e6:.1f}", f"{x['speedup_vs_scipy']:.2f}x"] for x in rows])


def _flow_table(rows: list[dict]) -> str:
    body = []
    for x in rows:
        ref = "scipy_dinic_s" if "scipy_dinic_s" in x else "networkx_s"
        body.append([x["device"], x["graph"], x["pair"], x["flow_value"], sig(x["ours_s"] * 1e3),
                     f"{sig(x[ref] * 1e3)} ({'SciPy dinic' if ref == 'scipy_dinic_s' else 'NetworkX'})",
                     f"{x[ref] / x['ours_s']:.2f}x", x.get("repeats", "")])
    return table(["device", "graph", "s-t pair", "flow", "ours ms", "reference ms", "speed-up", "rounds"], body)


def split_mst_flow(d: dict) -> tuple[list[dict], list[dict]]:
    """(spanning-forest rows, flow rows) of a combined file or of either half's own file."""
    if "mst" in d or "flow" in d:
        return d.get("mst", []), d.get("flow", [])
    rows = d.get("rows", [])
    return [x for x in rows if "part" not in x], [x for x in rows if "part" in x]


def mst_flow(r: Result) -> str:
    mst, flow = split_mst_flow(r.data)
    out = []
    if mst:
        out += ["Minimum spanning forest (interleaved medians; forest weights checked against SciPy's):", "",
                _mst_table(mst)]
    if flow:
        out += ["Maximum flow (interleaved medians; flow values checked against SciPy's):", "", _flow_table(flow)]
    return "\n".join(out)


def single_pair(r: Result) -> str:
    d = r.data
    return table(d.get("header", []), d.get("rows", []))


def generic(r: Result) -> str:
    """Any layout: a list of row records as a table, else the script's own markdown beside the JSON."""
    d = r.data
    rows = d.get("rows")
    if isinstance(rows, list) and rows and all(isinstance(x, dict) for x in rows):
        keys = list(dict.fromkeys(k for x in rows for k in x))
        return table(keys, [[_cell(x.get(k, "")) for k in keys] for x in rows])
    if isinstance(rows, list) and rows and isinstance(d.get("header"), list):
        return table(d["header"], rows)
    md = r.path.with_suffix(".md")
    if md.is_file():
        text = md.read_text().strip()
        return "\n".join(("#" * 3 + line) if line.startswith("#") else line for line in text.splitlines())
    return f"No table in a layout this report knows; see `{r.name}`."


def _cell(v: object) -> str:
    if isinstance(v, float):
        return sig(v, 4)
    if isinstance(v, (dict, list)):
        return "..."
    return str(v)


def own_markdown(r: Result) -> str:
    """The tables the script wrote beside its JSON (``<stem>.md``, without its title line); else ``generic``."""
    md = r.path.with_suffix(".md")
    if not md.is_file():
        return generic(r)
    lines = md.read_text().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip() + "\n"


RENDERERS: dict[str, Callable[[Result], str]] = {
    "gemm_cpu": gemm_cpu, "gemm_gpu": gemm_gpu, "apsp_cpu": apsp_cpu, "apsp_gpu": apsp_gpu,
    "traversal_cpu": traversal_cpu, "traversal_gpu": traversal_gpu, "mst_flow": mst_flow,
    "single_pair": single_pair, "generic": generic, "own_markdown": own_markdown, "scaling_gpu": own_markdown,
    "nx_backend": own_markdown,
}


def render(layout: str, r: Result) -> str:
    """The markdown body for result file ``r`` read as ``layout`` (``generic`` when unknown)."""
    return RENDERERS.get(layout, generic)(r)
