"""The README's performance table, written from the committed result files.

The rows between ``<!-- performance-table:start -->`` and ``<!-- performance-table:end -->``
in README.md are generated here, one function per row (or pair of rows), each reading
the result files it names; a line under the table lists those files with the machine
and date each records.  ``tests/test_benchmark_report.py`` checks that the committed
README equals what this module writes, so a hand edit or a stale table fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from .results import RESULTS, Result, load, machine_label

START = "<!-- performance-table:start -->"
END = "<!-- performance-table:end -->"
README = RESULTS.parents[1] / "README.md"
HEADER = ["what", "ours", "against", "ratio"]


class Sources:
    """Loads result files by name from one folder and remembers which rows used which file."""

    def __init__(self, folder: Path = RESULTS) -> None:
        self.folder = folder
        self.used: dict[str, Result] = {}

    def __call__(self, name: str) -> dict:
        if name not in self.used:
            path = self.folder / name
            if not path.is_file():
                raise FileNotFoundError(f"README performance table: result file {path} is missing")
            self.used[name] = load(path)
        return self.used[name].data


def _x(v: float, spec: str = ".1f") -> str:
    return f"{v:{spec}}x"


def _pick(rows: list[dict], **want) -> dict:
    for r in rows:
        if all(r.get(k) == v for k, v in want.items()):
            return r
    raise KeyError(f"no row with {want}")


# -- CPU GEMM -----------------------------------------------------------------------------------
GEMM_CPU = "gemm-cpu-xeon.json"


def gemm_cpu(src: Sources) -> list[list[str]]:
    rows = src(GEMM_CPU)["rows"]
    mp = [r for r in rows if r["op"] == "min_plus"]
    f32 = _pick(mp, impl="semiring-paths", dtype="float32")
    f64 = _pick(mp, impl="semiring-paths", dtype="float64")
    i32 = _pick(mp, impl="semiring-paths", dtype="int32")
    trop = next(r for r in mp if r["impl"].startswith("tropical-gemm"))
    npy = next(r for r in mp if r["impl"].startswith("NumPy"))
    gb = next(r for r in mp if r["impl"].startswith("python-graphblas"))
    boolean = {r["note"]: r for r in rows if r["op"] == "lor_land"}
    b05 = boolean["random, density 0.5"]
    b001 = boolean["random, density 0.01"]
    bsp = next(r for k, r in boolean.items() if k.startswith("A density 0.5, B density"))
    return [
        [f"CPU min-plus GEMM f32, n = {f32['n']}", f"{f32['gops']:.1f} G/s",
         f"tropical-gemm {trop['gops']:.1f} G/s; NumPy broadcast {npy['gops']:.1f} G/s; "
         f"GraphBLAS {gb['gops']:.1f} G/s",
         f"{_x(trop['ours_over_this'])}; {_x(npy['ours_over_this'], '.0f')}; {_x(gb['ours_over_this'], '.0f')}"],
        [f"CPU min-plus GEMM f64 / int32, n = {f64['n']}", f"{f64['gops']:.1f} / {i32['gops']:.1f} G/s", "", ""],
        [f"CPU Boolean GEMM (bit-packed, Four Russians), n = {b05['n']}",
         f"{b05['gops'] / 1e3:.1f} T bool-ops/s (random, density 0.5); {b001['gops'] / 1e3:.1f} (density 0.01); "
         f"{bsp['gops'] / 1e3:.2f} (C stays sparse, no early exit)", "",
         f"{b05['ours_over_this']:.0f}x / {b001['ours_over_this']:.0f}x / {bsp['ours_over_this']:.0f}x "
         "our f32 min-plus rate"],
    ]


# -- CPU APSP and traversal -------------------------------------------------------------------
def apsp_cpu(src: Sources) -> list[list[str]]:
    d = src("apsp-cpu.json")
    n, dense, sparse, tc = d["n"], d["dense"], d["sparse"], d["transitive_closure"]
    rk, bfw, pred = dense["rkleene"], dense["blocked-fw"], dense["auto+predecessors"]
    pvd = dense.get("predecessors_vs_distances")  # newer runs: distances only vs with predecessors, per dtype
    extra = [] if not pvd else [
        [f"CPU APSP dense n = {n}, with predecessors / distances only ({' / '.join(pvd)})",
         " / ".join(f"{v['predecessors_seconds']:.3f}" for v in pvd.values()) + " s / "
         + " / ".join(f"{v['distances_seconds']:.3f}" for v in pvd.values()) + " s", "",
         " / ".join(f"{v['ratio']:.2f}x" for v in pvd.values())]]
    return [
        [f"CPU APSP f64 dense n = {n} (R-Kleene / blocked FW)", f"{rk['seconds']:.3f} / {bfw['seconds']:.3f} s",
         f"SciPy floyd_warshall {dense['scipy.floyd_warshall']:.2f} s",
         f"{_x(rk['speedup_vs_scipy'])} / {_x(bfw['speedup_vs_scipy'])}"],
        [f"CPU APSP f64 dense n = {n} with predecessors", f"{pred['seconds']:.2f} s", "",
         _x(pred["speedup_vs_scipy"])],
        *extra,
        [f"CPU APSP sparse degree 12, n = {n} (R-Kleene)", f"{sparse['rkleene']['seconds']:.3f} s",
         f"SciPy Dijkstra from all sources {sparse['scipy.dijkstra']:.2f} s",
         _x(sparse["rkleene"]["speedup_vs_dijkstra"])],
        [f"CPU transitive closure n = {tc['n']}", f"{tc['seconds']:.3f} s",
         f"SciPy reachability {tc['scipy_bfs_seconds']:.2f} s", _x(tc["scipy_bfs_seconds"] / tc["seconds"])],
    ]


def _sig3(v: float) -> str:
    from .tables import sig

    return sig(v, 3)


def traversal_cpu(src: Sources) -> list[list[str]]:
    rows = src("traversal-cpu.json")["rows"]
    rmat = rows[0]["graph"]
    scale = re.search(r"scale (\d+)", rmat).group(1)
    b1, b2 = _pick(rows, graph=rmat, op="BFS"), _pick(rows, graph="email-Enron", op="BFS")
    s1, s2 = _pick(rows, graph=rmat, op="SSSP"), _pick(rows, graph="email-Enron", op="SSSP")
    return [
        [f"CPU BFS R-MAT {scale} / email-Enron", f"{b1['ours_s'] * 1e3:.2f} / {b2['ours_s'] * 1e3:.2f} ms",
         f"SciPy breadth_first_order {_sig3(b1['scipy_s'] * 1e3)} / {_sig3(b2['scipy_s'] * 1e3)} ms",
         f"{_x(b1['speedup'])} / {_x(b2['speedup'])}"],
        [f"CPU SSSP R-MAT {scale} / email-Enron", f"{_sig3(s1['ours_s'] * 1e3)} / {_sig3(s2['ours_s'] * 1e3)} ms",
         f"SciPy Dijkstra {_sig3(s1['scipy_s'] * 1e3)} / {_sig3(s2['scipy_s'] * 1e3)} ms",
         f"{_x(s1['speedup'])} / {_x(s2['speedup'])}"],
    ]


# -- GPU ------------------------------------------------------------------------------------
GEMM_GPU = "gemm-gpu-nvidia-h200.json"


def gemm_gpu(src: Sources) -> list[list[str]]:
    d = src(GEMM_GPU)
    rows, ceil = d["rows"], d["ceilings"]
    nn = _pick(rows, variant="ours (non-negative input)", n=8192)
    gen = _pick(rows, variant="ours (general kernel)", n=8192)
    f64 = _pick(rows, semiring="min_plus", dtype="float64", variant="ours", n=8192)
    lazy = _pick(rows, variant="degree12 lazy=auto")
    dense = _pick(rows, variant="degree12 lazy=off")
    boolean = _pick(rows, semiring="lor_land")
    streamed = [r["fraction_of_in_core"] for r in rows if "fraction_of_in_core" in r]
    return [
        [f"GPU min-plus GEMM f32, n = {nn['n']}, non-negative input / general kernel",
         f"{nn['tops']:.2f} / {gen['tops']:.2f} T/s", f"ceiling {ceil['float32'] / 1e12:.2f}",
         f"{nn['fraction_of_ceiling']:.1%} / {gen['fraction_of_ceiling']:.1%}"],
        [f"GPU min-plus GEMM f64, n = {f64['n']}", f"{f64['tops']:.2f} T/s",
         f"f64 ceiling {ceil['float64'] / 1e12:.2f}", f"{f64['fraction_of_ceiling']:.0%}"],
        [f"GPU lazy min, average degree 12, n = {lazy['n']}", f"{lazy['seconds'] * 1e3:.2f} ms",
         f"dense kernel {dense['seconds'] * 1e3:.1f} ms", _x(dense["seconds"] / lazy["seconds"])],
        [f"GPU Boolean GEMM n = {boolean['n']}", f"{boolean['tops']:.0f} T bool-ops/s", "", ""],
        ["GPU streamed GEMM, operand 3x the memory budget",
         f"{min(streamed):.1%}-{max(streamed):.1%} of in-core".replace("%-", "-"), "", ""],
    ]


APSP_GPU = "apsp-nvidia-h200.json"


def apsp_gpu(src: Sources) -> list[list[str]]:
    d = src(APSP_GPU)
    dense = {r["n"]: r for r in d["runs"] if r["kind"] == "dense"}
    big = max(dense)
    mid = max(n for n, r in dense.items() if "cupy_rank1_fw" in r)
    t_mid, t_big = dense[mid]["rkleene"]["seconds"], dense[big]["rkleene"]["seconds"]
    cupy = dense[mid]["cupy_rank1_fw"]["seconds"]
    ooc = d["out_of_core"]
    return [
        [f"GPU APSP f32 R-Kleene, n = {mid} / {big} (device-resident)", f"{t_mid * 1e3:.1f} ms / {t_big:.2f} s",
         f"CuPy rank-1 Floyd-Warshall {cupy:.2f} s (n = {mid})", _x(cupy / t_mid, ".0f")],
        [f"GPU APSP out-of-core, n = {ooc['n']}, budget = matrix / 2",
         f"{ooc['fraction_of_in_core_rate']:.0%} of the in-core rate", "", ""],
    ]


TRAVERSAL_GPU = "traversal-gpu-nvidia-h200.json"


def traversal_gpu(src: Sources) -> list[list[str]]:
    rows = src(TRAVERSAL_GPU)["rows"]
    cus = next(r for r in rows if r["what"].startswith("SpMV cuSPARSE"))
    chk = next(r for r in rows if "entries checked" in r["what"])
    unchk = next(r for r in rows if "check=False" in r["what"])
    bfs = next(r for r in rows if r["what"].startswith("BFS R-MAT"))
    sssp = next(r for r in rows if r["what"].startswith("SSSP"))
    grid = next(r for r in rows if "grid" in r["what"])
    scale = re.search(r"R-MAT (\d+)", bfs["what"]).group(1)
    sources = re.search(r"median of (\d+) sources", bfs["what"]).group(1)
    arcs = cus["rate"] * cus["seconds"]  # G stored arcs/s x s
    side, levels = re.search(r"(\d+)x\d+ grid \((\d+) levels\)", grid["what"]).groups()
    return [
        [f"GPU min-plus SpMV f32, R-MAT {scale} ({arcs * 1e3:.0f} M arcs); entries checked / unchecked",
         f"{chk['seconds'] * 1e3:.2f} / {unchk['seconds'] * 1e3:.2f} ms",
         f"cuSPARSE plus-times SpMV {cus['seconds'] * 1e3:.2f} ms",
         f"{chk['vs_cusparse']:.0%} / {unchk['vs_cusparse']:.0%} of cuSPARSE"],
        [f"GPU BFS R-MAT {scale} / SSSP delta-stepping (median of {sources} sources)",
         f"{_sig3(bfs['rate'])} / {_sig3(sssp['rate'])} GTEPS", "", ""],
        [f"GPU BFS {side} x {side} grid ({levels} levels)", f"{grid['seconds'] * 1e3:.1f} ms",
         "launch + readback floor x levels", f"{grid['vs_floor']:.2f}x the floor"],
    ]


# -- spanning forests, flows, routes ----------------------------------------------------------
MST_FLOW_CPU = "mst_flow-cpu.json"
MST_FLOW_GPU = "mst_flow-gpu-nvidia-h200.json"


def _cpu_words(m: dict) -> str:
    simd = str(m.get("simd", "")).split()
    width = "AVX-512" if "avx512f" in simd else ("AVX2" if "avx2" in simd else "no AVX2")
    return f"{m['cores']}-core {m['cpu']} ({width})"


def mst_flow_cpu(src: Sources) -> list[list[str]]:
    d = src(MST_FLOW_CPU)
    mst, flow = d["mst"], d["flow"]
    rmat = next(r["graph"] for r in mst if r["graph"].startswith("R-MAT"))
    ours, scipy = _pick(mst, graph=rmat, impl="ours"), _pick(mst, graph=rmat, impl="scipy")
    scale, ef = re.search(r"R-MAT (\d+), ef (\d+)", rmat).groups()
    fl = [r for r in flow if "scipy_dinic_s" in r]
    gname = next(r["graph"] for r in fl if r["graph"].startswith("grid"))
    rname = next(r["graph"] for r in fl if r["graph"].startswith("R-MAT"))
    gc, gm = _pick(fl, graph=gname, pair="corners"), _pick(fl, graph=gname, pair="mid-row 1%-99%")
    rh, rr = _pick(fl, graph=rname, pair="two top hubs"), _pick(fl, graph=rname, pair="random")
    side = re.search(r"grid (\d+)x", gname).group(1)
    fscale = re.search(r"R-MAT (\d+)", rname).group(1)
    return [
        [f"CPU minimum spanning forest, R-MAT {scale} (edge factor {ef}), {_cpu_words(d['machine'])}",
         f"{ours['seconds'] * 1e3:.0f} ms", f"SciPy minimum_spanning_tree {scipy['seconds'] * 1e3:.0f} ms",
         _x(ours["speedup_vs_scipy"])],
        [f"CPU maximum flow, {side} x {side} grid (corners / mid-row) and R-MAT {fscale} (hubs / random pair), "
         "same CPU",
         f"{gc['ours_s'] * 1e3:.1f} / {gm['ours_s'] * 1e3:.1f} ms; {rh['ours_s'] * 1e3:.0f} / "
         f"{rr['ours_s'] * 1e3:.0f} ms",
         f"SciPy maximum_flow dinic {gc['scipy_dinic_s'] * 1e3:.1f} / {gm['scipy_dinic_s'] * 1e3:.0f} ms; "
         f"{rh['scipy_dinic_s'] * 1e3:.0f} / {rr['scipy_dinic_s'] * 1e3:.0f} ms",
         f"{_x(gc['speedup_vs_scipy'], '.2f')} / {_x(gm['speedup_vs_scipy'], '.0f')}; "
         f"{_x(rh['speedup_vs_scipy'])} / {_x(rr['speedup_vs_scipy'])}"],
    ]


def mst_flow_gpu(src: Sources) -> list[list[str]]:
    d = src(MST_FLOW_GPU)
    mst, flow = d["mst"], d["flow"]
    big = max((r for r in mst if r["impl"] == "ours (GPU)"), key=lambda r: r["edges"])
    scipy = _pick(mst, graph=big["graph"], impl="scipy (this machine's CPU)")
    scale = re.search(r"R-MAT (\d+)", big["graph"]).group(1)
    gname = next(r["graph"] for r in flow if r["graph"].startswith("grid"))
    rname = next(r["graph"] for r in flow if r["graph"].startswith("R-MAT"))
    gm, gc = _pick(flow, graph=gname, pair="mid-row 1%-99%"), _pick(flow, graph=gname, pair="corners")
    rh, rr = _pick(flow, graph=rname, pair="two top hubs"), _pick(flow, graph=rname, pair="random")
    side = re.search(r"grid (\d+)x", gname).group(1)
    fscale = re.search(r"R-MAT (\d+)", rname).group(1)
    return [
        [f"GPU minimum spanning forest, R-MAT {scale} ({big['edges'] / 1e6:.0f} M edges)",
         f"{big['seconds'] * 1e3:.1f} ms ({big['edges_per_s'] / 1e9:.1f} G edges/s)",
         f"SciPy on the GPU machine's CPU {scipy['seconds']:.1f} s", _x(big["speedup_vs_scipy"], ".0f")],
        [f"GPU maximum flow, {side} x {side} grid (mid-row / corners)",
         f"{gm['ours_s'] * 1e3:.0f} / {gc['ours_s'] * 1e3:.0f} ms",
         f"SciPy dinic on the GPU machine's CPU {gm['scipy_dinic_s']:.1f} / {gc['scipy_dinic_s']:.1f} s",
         f"{_x(gm['speedup_vs_scipy'], '.0f')} / {_x(gc['speedup_vs_scipy'], '.0f')}"],
        [f"GPU maximum flow, R-MAT {fscale} (hubs / random pair)",
         f"{rh['ours_s'] * 1e3:.0f} / {rr['ours_s'] * 1e3:.0f} ms",
         f"SciPy dinic on the GPU machine's CPU {rh['scipy_dinic_s'] * 1e3:.0f} / {rr['scipy_dinic_s'] * 1e3:.0f} ms",
         f"{_x(rh['speedup_vs_scipy'])} / {_x(rr['speedup_vs_scipy'])}"],
    ]


def single_pair(src: Sources) -> list[list[str]]:
    d = src("single_pair-cpu.json")
    h = d["header"]
    rows = {r[0].split()[0]: r for r in d["rows"]}  # "grid_2d", "road_network(1,000,000)"
    grid, road = rows["grid_2d"], next(r for k, r in rows.items() if k.startswith("road_network"))

    def num(s: str) -> float:
        return float(str(s).replace(",", "").rstrip("x"))

    def best(r: list) -> float:
        return min(num(r[h.index("bidirectional ms")]), num(r[h.index("A* ms")]))

    n = num(grid[h.index("vertices")])
    size = f"{n / 1e6:.0f}M" if n >= 1e6 else f"{n / 1e3:.0f}k"
    ref = h.index("SciPy full Dijkstra ms")
    return [[f"CPU single-pair route, {size}-vertex grid / road network", f"{best(grid):.0f} / {best(road):.0f} ms",
             f"SciPy Dijkstra from the source {num(grid[ref]):.0f} / {num(road[ref]):.0f} ms",
             f"{grid[-1]} / {road[-1]}"]]


def csgraph_cpu(src: Sources) -> list[list[str]]:
    rows = src("csgraph-cpu.json")["rows"]
    fw = next(r for r in rows if r["what"].startswith("shortest_path(method='FW') dense float64"))
    dj = next(r for r in rows if r["what"].startswith("dijkstra(") and "random weights" not in r["what"])
    djw = next((r for r in rows if r["what"].startswith("dijkstra(") and "random weights" in r["what"]), None)
    k = re.search(r"<(\d+) sources>", dj["what"]).group(1)
    ours = f"{dj['ours_s'] * 1e3:.0f}" + (f" / {djw['ours_s'] * 1e3:.0f}" if djw else "")
    theirs = f"{dj['scipy_s'] * 1e3:.0f}" + (f" / {djw['scipy_s'] * 1e3:.0f}" if djw else "")
    ratio = _x(dj["speedup"]) + (f" / {_x(djw['speedup'])}" if djw else "")
    return [
        [f"CPU `graphs.csgraph.shortest_path(method='FW')`, dense {fw['size'].replace('n=', 'n = ')}",
         f"{fw['ours_s']:.3f} s ({100 * fw['ours_vs_engine_rate']:.0f}% of the engine's rate)",
         f"SciPy {fw['scipy_s']:.2f} s", _x(fw["speedup"])],
        [f"CPU `graphs.csgraph.dijkstra`, {k} sources of email-Enron (unit / random weights)", f"{ours} ms",
         f"SciPy {theirs} ms", ratio],
    ]


def nx_backend_cpu(src: Sources) -> list[list[str]]:
    data = src("nx-backend-cpu.json")
    res = data["results"]
    served = [r for r in res if r.get("served", True)]
    sssp = next(r for r in res if r["case"].startswith("single_source_dijkstra_path_length, gnm(20000"))
    m = re.search(r"gnm\((\d+), (\d+)\)", sssp["case"])
    return [[f"CPU NetworkX backend: {len(served)} served cases, conversion included (median); "
             f"`single_source_dijkstra_path_length`, {int(m.group(2)):,} edges",
             f"{sssp['backend_s'] * 1e3:.1f} ms", f"NetworkX {sssp['networkx_s'] * 1e3:.1f} ms",
             f"{_x(data['median_speedup'])} (median) / {_x(sssp['speedup'])}"]]


def _einsum_chain(src: Sources, name: str, device: str, seconds: bool) -> list[list[str]]:
    """The chain row of an einsum result file (times in s, or in ms for the GPU)."""
    chain = next(r for r in src(name)["rows"] if r["case"].startswith("chain"))
    scale, unit, spec = (1, "s", ".3f") if seconds else (1e3, "ms", ".2f")
    return [[f"{device} `semiring.einsum` `{chain['case'].split()[-1]}` min-plus, {chain['shape']}",
             f"{chain['einsum_s'] * scale:{spec}} {unit}",
             f"the {chain['reference']} it reduces to {chain['reference_s'] * scale:{spec}} {unit}",
             f"{chain['ratio']:.3f}x the time"]]


def einsum_cpu(src: Sources) -> list[list[str]]:
    return _einsum_chain(src, "einsum-cpu.json", "CPU", seconds=True)


def gemm_gpu_int(src: Sources) -> list[list[str]]:
    d = src("gemm-gpu-nvidia-h200-int.json")
    rows, ceil = d["rows"], d["ceilings"]
    plain = next(r for r in rows if r["dtype"] == "int32" and r["variant"].startswith("ours plain sums"))
    sat = next(r for r in rows if r["dtype"] == "int32" and r["variant"].startswith("ours saturating, same"))
    return [[f"GPU min-plus GEMM int32, n = {plain['n']}, plain sums (range-checked) / saturating",
             f"{plain['tops']:.2f} / {sat['tops']:.2f} T/s",
             f"int32 add+min ceiling {ceil['int32_wrap'] / 1e12:.2f} T/s (same run)",
             f"{plain['fraction_of_ceiling']:.1%} of the ceiling"]]


def integers_gpu(src: Sources) -> list[list[str]]:
    d = src("integers-gpu-nvidia-h200.json")
    rows, ceil = d["rows"], d["ceilings"]
    out = []
    signed = [r for r in rows if r["part"] == "gemm" and r["case"].startswith("float32 min-plus, signed")]
    fast = [r for r in signed if not r["case"].endswith(("general kernel", "rows in A's order"))]
    general = next((r for r in signed if r["case"] == "float32 min-plus, signed (-1..1), general kernel"), None)
    if fast and general:
        labels = [r["case"].removeprefix("float32 min-plus, signed").strip(" ,") or "-1..1" for r in fast]
        out.append([f"GPU min-plus GEMM f32, n = {general['n']}, signed input: " + " / ".join(labels),
                    " / ".join(f"{r['tops']:.2f}" for r in fast) + " T/s",
                    f"general kernel {general['tops']:.2f} T/s; ceiling {ceil['float32'] / 1e12:.2f} (same run)",
                    " / ".join(f"{r['fraction_of_ceiling']:.1%}" for r in fast) + " of the ceiling"])
    hop = next((r for r in rows if r["part"] == "hop-counts"), None)
    if hop:
        out.append([f"GPU hop-count APSP, n = {hop['n']} (packed 16-bit lanes, DPX)",
                    f"{hop['packed_s'] * 1e3:.0f} ms = {hop['rate_tops']:.1f} T/s",
                    f"fp32 min-plus ceiling {hop['rate_tops'] / hop['fraction_of_fp32_ceiling']:.2f} T/s (same run)",
                    f"{hop['fraction_of_fp32_ceiling']:.2f}x the ceiling"])
    apsp32 = next((r for r in rows if r["part"] == "apsp-int32"), None)
    pred = next((r for r in rows if r["part"] == "predecessors" and r["case"].endswith("float32")), None)
    if apsp32 and pred:
        out.append([f"GPU APSP n = {apsp32['n']}: int32 / with predecessors (float32)",
                    f"{apsp32['int32_s'] * 1e3:.0f} / {pred['predecessors_s'] * 1e3:.0f} ms",
                    f"float32 distances only {apsp32['float32_s'] * 1e3:.0f} / {pred['distances_s'] * 1e3:.0f} ms",
                    f"{apsp32['ratio']:.2f}x / {pred['ratio']:.2f}x the time"])
    return out


def csgraph_gpu(src: Sources) -> list[list[str]]:
    rows = src("csgraph-gpu-nvidia-h200.json")["rows"]
    fw = next(r for r in rows if r["what"].startswith("shortest_path(method='FW')"))
    dj = next(r for r in rows if r["what"].startswith("dijkstra("))
    k = re.search(r"<(\d+) sources>", dj["what"]).group(1)
    scale = re.search(r"R-MAT scale (\d+)", dj["what"]).group(1)
    return [[f"GPU `graphs.csgraph`: `shortest_path(method='FW')` {fw['size'].replace('n=', 'n = ')} (CuPy input) / "
             f"`dijkstra` from {k} sources of R-MAT {scale}",
             f"{fw['ours_s'] * 1e3:.1f} ms / {dj['ours_s']:.2f} s",
             f"SciPy on the GPU machine's CPU {fw['scipy_s']:.1f} s / {dj['scipy_s']:.0f} s (timed on fewer, scaled)",
             f"{_x(fw['speedup'], '.0f')} / {_x(dj['speedup'])}"]]


def einsum_gpu(src: Sources) -> list[list[str]]:
    return _einsum_chain(src, "einsum-gpu-nvidia-h200.json", "GPU", seconds=False)


def _line(cells: list[str]) -> str:
    """One markdown table line; an empty cell is written ``| |``."""
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


#: The table's rows, in order.
ROWS: tuple[Callable[[Sources], list[list[str]]], ...] = (
    gemm_cpu, apsp_cpu, traversal_cpu, gemm_gpu, gemm_gpu_int, integers_gpu, apsp_gpu, traversal_gpu, mst_flow_cpu, mst_flow_gpu,
    single_pair, csgraph_cpu, csgraph_gpu, nx_backend_cpu, einsum_cpu, einsum_gpu,
)


def table(folder: Path = RESULTS) -> str:
    """The markdown between the markers: the table, then the result files it was read from."""
    src = Sources(folder)
    rows = [row for fn in ROWS for row in fn(src)]
    lines = [_line(HEADER), _line(["---"] * len(HEADER)), *(_line(r) for r in rows), ""]
    files = "; ".join(f"`{name}` ({machine_label(r.machine, r.gpu)}, {r.date})" for name, r in src.used.items())
    lines.append(f"Generated by `python -m benchmarks --report-only` from `benchmarks/results/`: {files}.")
    return "\n".join(lines)


def replace_between_markers(text: str, block: str) -> str:
    """``text`` with everything between the two markers replaced by ``block``."""
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        raise ValueError(f"README.md lacks the markers {START} ... {END}")
    return text[: i + len(START)] + "\n" + block.rstrip("\n") + "\n" + text[j:]


def current(readme: Path = README) -> str:
    """The block now between the markers of ``readme`` (without the marker lines' newlines)."""
    text = readme.read_text()
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        raise ValueError(f"{readme} lacks the markers {START} ... {END}")
    return text[i + len(START): j].strip("\n")


def write(readme: Path = README, folder: Path = RESULTS) -> bool:
    """Rewrite the table in ``readme`` from the result files in ``folder``; True if the file changed."""
    text = readme.read_text()
    new = replace_between_markers(text, table(folder))
    if new != text:
        readme.write_text(new)
    return new != text
