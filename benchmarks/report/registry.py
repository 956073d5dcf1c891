"""The benchmark suites: which script, which arguments, which result files.

A suite is one script of ``benchmarks/`` called in this process through its
``main(argv)``.  Adding a suite is one :class:`Suite` entry in :data:`SUITES`
(and, for a result layout the report does not know yet, a renderer in
``tables.py``; without one the report shows the script's own markdown).
Suites marked ``optional`` may lack their script: they are reported as "not
present" and skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Suite:
    """One benchmark suite.

    ``script``: module name of the script in ``benchmarks/`` (``gemm_cpu`` for
    ``gemm_cpu.py``).  ``device``: ``"cpu"`` or ``"gpu"`` (GPU suites run only
    where CuPy sees a device).  ``argv`` / ``quick_argv``: arguments of a full
    and of a ``--quick`` run.  ``results``: glob patterns of its result files
    (``*.json`` under the results folder), in report order.  ``layout``: the
    renderer of ``tables.py`` / ``plots.py`` that reads them (``"generic"``:
    any layout).  ``optional``: the script may be missing.
    """

    name: str
    script: str
    device: str
    title: str
    results: tuple[str, ...]
    layout: str = "generic"
    argv: tuple[str, ...] = ()
    quick_argv: tuple[str, ...] = ("--quick",)
    optional: bool = False
    notes: str = ""

    @property
    def path(self) -> Path:
        """The script's file."""
        return BENCHMARKS / f"{self.script}.py"

    @property
    def present(self) -> bool:
        """Whether the script exists in this checkout."""
        return self.path.is_file()

    def command(self, quick: bool = False) -> str:
        """The command that runs this suite alone."""
        args = self.quick_argv if quick else self.argv
        return " ".join(["python3", f"benchmarks/{self.script}.py", *args])


SUITES: tuple[Suite, ...] = (
    Suite("gemm_cpu", "gemm_cpu", "cpu", "CPU semiring GEMM",
          ("gemm-cpu.json", "gemm-cpu-*.json"), layout="gemm_cpu",
          notes="`gemm-cpu-xeon.json` is the run on the 2-core Intel Xeon (AVX-512) whose figures the "
                "README quotes, kept as committed on 2026-11-22 when `gemm-cpu.json` was rerun on an AMD EPYC."),
    Suite("gemm_gpu", "gemm_gpu", "gpu", "GPU semiring GEMM against the measured ceilings and CuPy",
          ("gemm-gpu-*.json",), layout="gemm_gpu"),
    Suite("apsp", "apsp", "cpu", "All-pairs shortest paths on the CPU", ("apsp-cpu.json",),
          layout="apsp_cpu", argv=("--cpu-only",), quick_argv=("--cpu-only", "--quick")),
    Suite("apsp_gpu", "apsp", "gpu", "All-pairs shortest paths on the GPU", ("apsp-nvidia-*.json",),
          layout="apsp_gpu", argv=("--gpu-only",), quick_argv=("--gpu-only", "--quick")),
    Suite("traversal", "traversal", "cpu", "BFS, SSSP and components on the CPU", ("traversal-cpu.json",),
          layout="traversal_cpu"),
    Suite("traversal_gpu", "traversal", "gpu", "SpMV, BFS and SSSP on the GPU", ("traversal-gpu-*.json",),
          layout="traversal_gpu", argv=("--gpu",), quick_argv=("--gpu", "--quick")),
    Suite("mst_flow", "mst_flow", "cpu", "Spanning forests and maximum flows on the CPU",
          ("mst_flow-cpu.json", "mst-cpu.json", "flow-cpu.json"), layout="mst_flow",
          notes="`mst-cpu.json` and `flow-cpu.json` are earlier runs of the two halves alone "
                "(`_mst_bench.py`, `_flow_bench.py`)."),
    Suite("mst_flow_gpu", "mst_flow", "gpu", "Spanning forests and maximum flows on the GPU",
          ("mst_flow-gpu-*.json",), layout="mst_flow", argv=("--gpu",), quick_argv=("--gpu", "--quick")),
    Suite("single_pair", "single_pair", "cpu", "Single-pair routes on the CPU", ("single_pair-cpu.json",),
          layout="single_pair"),
    Suite("k_shortest_paths", "k_shortest_paths", "cpu",
          "k shortest loopless paths (Yen) on a road network against SciPy, igraph and NetworkX",
          ("k_shortest_paths-cpu.json",), layout="own_markdown", optional=True),
    Suite("distributed", "distributed", "cpu", "APSP on a Dask cluster (2 CPU workers)", ("distributed-cpu.json",),
          optional=True),
    Suite("distributed_gpu", "distributed", "gpu",
          "APSP over the GPUs of one host: one process, Dask worker threads and processes; streamed from host memory",
          ("distributed-gpu-*.json", "streamed-gpu-*.json"), layout="scaling_gpu",
          argv=("--gpu", "--gpus", "1,2,4", "--n", "65536", "--dask", "threads,processes"),
          quick_argv=("--gpu", "--quick"), optional=True,
          notes="`streamed-gpu-*.json` is the run with `--streamed --device-budget 3221225472 --check-rows 8`: "
                "a matrix in host memory larger than the GPUs' budgets together."),
    Suite("csgraph", "csgraph", "cpu", "scipy.sparse.csgraph drop-in on the CPU", ("csgraph-cpu.json",),
          layout="csgraph", optional=True),
    Suite("csgraph_gpu", "csgraph", "gpu", "scipy.sparse.csgraph drop-in on the GPU", ("csgraph-gpu*.json",),
          layout="csgraph", argv=("--gpu",), quick_argv=("--gpu", "--quick"), optional=True),
    Suite("nx_backend", "nx_backend", "cpu", "NetworkX backend on the CPU", ("nx-backend-cpu.json",),
          layout="nx_backend", optional=True),
    Suite("einsum", "einsum", "cpu", "Semiring einsum on the CPU", ("einsum-cpu.json",), layout="einsum", optional=True),
    Suite("einsum_gpu", "einsum", "gpu", "Semiring einsum on the GPU", ("einsum-gpu*.json",),
          layout="einsum", argv=("--gpu",), quick_argv=("--gpu", "--quick"), optional=True),
    Suite("centrality", "centrality", "cpu",
          "Betweenness and closeness on the CPU against NetworkX, rustworkx and igraph", ("centrality-cpu.json",),
          layout="own_markdown", optional=True),
    Suite("centrality_gpu", "centrality", "gpu",
          "Betweenness and diameters on the GPU, against rustworkx and igraph on the host's cores",
          ("centrality-gpu-*.json",), layout="own_markdown", argv=("--gpu", "--peers"),
          quick_argv=("--gpu", "--quick"), optional=True,
          notes="Where the GPU betweenness time goes, per kernel, against random-access ceilings measured in the "
                "same run: `PYTHONPATH=. python3 benchmarks/profile_centrality_gpu.py` "
                "(`profile-centrality-gpu-h200.json`, written with `--json`)."),
    Suite("graph500", "graph500", "cpu",
          "Graph500 BFS (kernel 2) and SSSP (kernel 3), every search validated, against SciPy",
          ("graph500-cpu.json",), layout="own_markdown", argv=("--peers",), quick_argv=("--quick", "--peers")),
    Suite("graph500_gpu", "graph500", "gpu", "Graph500 BFS (kernel 2) and SSSP (kernel 3) on the GPU, every search validated",
          ("graph500-gpu-*.json",), layout="own_markdown", argv=("--device", "gpu"),
          quick_argv=("--device", "gpu", "--quick")),
    Suite("integers_gpu", "integers_gpu", "gpu",
          "Integers and paths on the GPU: int32 and packed 16-bit lanes against float32, predecessors",
          ("integers-gpu-*.json",), layout="own_markdown", optional=True),
)


def by_name(names: list[str] | None = None) -> list[Suite]:
    """The suites named (all when ``names`` is empty or None), in registry order.

    Raises ``ValueError`` naming an unknown suite and listing the known ones.
    """
    if not names:
        return list(SUITES)
    known = {s.name for s in SUITES}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown suite(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    return [s for s in SUITES if s.name in names]
