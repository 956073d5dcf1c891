"""Values in graph files: read exactly in the chosen dtype or rejected, naming file, line and value.

Covers the value policy of :mod:`graphs.io`: float64 by default, integer literals
exact or an error (near 2**24, 2**31, 2**53, 2**63 and beyond int64), integer dtypes
strictly between their sentinels, float overflow / NaN / inf literals, vertex counts
and ids beyond the int32 index limit (checked before allocating), and broken gzip.
"""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import python_calls

import graphs
from graphs import GraphFormatError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FMT = ("dimacs", "snap", "mtx")
SUFFIX = {"dimacs": "g.gr", "snap": "g.txt", "mtx": "g.mtx"}
FUNCTION_TMP = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
LIMIT = 2**31 - 1  # vertices: the graph's column indices are int32


def weighted_file(fmt: str, weights: list[str], field: str = "real") -> str:
    """A file of arcs ``i -> i + 1`` (0-based) weighing ``weights[i]``; arc ``i`` is on line ``i + 2``."""
    m = len(weights)
    if fmt == "dimacs":
        return f"p sp {m + 1} {m}\n" + "".join(f"a {i + 1} {i + 2} {w}\n" for i, w in enumerate(weights))
    if fmt == "snap":
        return "# weighted\n" + "".join(f"{i} {i + 1} {w}\n" for i, w in enumerate(weights))
    return (f"%%MatrixMarket matrix coordinate {field} general\n{m + 1} {m + 1} {m}\n"
            + "".join(f"{i + 1} {i + 2} {w}\n" for i, w in enumerate(weights)))


def arc_line(fmt: str, i: int) -> int:
    """1-based line of arc ``i`` in :func:`weighted_file`."""
    return i + (3 if fmt == "mtx" else 2)


def read_weights(tmp_path: Path, fmt: str, weights: list[str], dtype=None, field: str = "real"):
    path = tmp_path / SUFFIX[fmt]
    path.write_text(weighted_file(fmt, weights, field))
    G = graphs.read(path, dtype=dtype)
    src, dst, w = G.edges()
    order = np.argsort(src)
    return w[order]


def expect_error(tmp_path: Path, name: str, text: str, line: int | None, *patterns: str, **kw) -> GraphFormatError:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path, **kw)
    e = info.value
    msg = str(e)
    assert e.line == line, msg
    assert str(path) in msg
    if line is not None:
        assert f"line {line} (byte offset {e.offset}):" in msg
        rows = text.encode().splitlines(keepends=True)
        start = sum(len(r) for r in rows[:line - 1])
        assert start <= e.offset < start + len(rows[line - 1]), msg  # the offset lies on that line
    for p in patterns:
        assert p in msg, msg
    return e


# -- 1. default dtype -----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("field", ["real", "integer"])
def test_integer_weights_read_as_float64_by_default(tmp_path, fmt, field):
    w = read_weights(tmp_path, fmt, ["7", "-3", str(2**53), "0"], field=field)
    assert w.dtype == np.float64
    assert w.tolist() == [7.0, -3.0, float(2**53), 0.0]
    for dt in (np.int32, np.int64, np.float32):
        w = read_weights(tmp_path, fmt, ["7", "-3", "0"], dtype=dt, field=field)
        assert w.dtype == dt and w.tolist() == [7, -3, 0]


def test_unreachable_is_inf_with_the_default_dtype(tmp_path):
    import semiring as sr

    path = tmp_path / "g.gr"
    path.write_text("p sp 3 1\na 1 2 5\n")
    W = graphs.read(path).to_dense(sr.min_plus)
    assert W.dtype == np.float64 and W[0, 1] == 5 and np.isinf(W[0, 2])


def test_rome99_weights_are_exact_in_float64():
    path = DATA / "rome99.gr"
    if not path.exists():
        pytest.skip(f"{path} is not available")
    G, Gi = graphs.read(path), graphs.read(path, dtype=np.int64)
    assert G.dtype == np.float64 and Gi.dtype == np.int64
    assert np.array_equal(G.weights, Gi.weights) and np.all(G.weights == np.round(G.weights))


# -- 2. integer literals: exact or an error ------------------------------------------------
BOUNDARIES = [0, 2**24, 2**31, 2**53, 2**63, 2**64]
near_boundaries = st.builds(lambda b, s, d: s * b + d, st.sampled_from(BOUNDARIES), st.sampled_from([1, -1]),
                            st.integers(-3, 3))
integer_literals = st.one_of(near_boundaries, st.integers(-(2**70), 2**70), st.integers(-1000, 1000),
                             st.integers(0, 40).map(lambda k: 2**k * 3), st.integers(0, 68).map(lambda k: -(2**k)))


def fits_float(v: int, dtype) -> bool:
    """Reference: ``v`` is exactly a value of the float ``dtype`` (Python compares int and float exactly)."""
    return int(np.dtype(dtype).type(float(v))) == v


def fits_int(v: int, dtype) -> bool:
    """Reference: ``v`` lies strictly between the -inf and +inf sentinels of ``dtype``."""
    info = np.iinfo(dtype)
    return int(info.min) < v < int(info.max)


@FUNCTION_TMP
@given(st.sampled_from(FMT), st.sampled_from([None, np.float64, np.float32, np.int64, np.int32]),
       st.lists(integer_literals, min_size=1, max_size=6), st.sampled_from(["real", "integer"]))
def test_integer_literals_are_exact_or_an_error(tmp_path, fmt, dtype, values, field):
    dt = np.dtype(np.float64 if dtype is None else dtype)
    fits = [fits_int(v, dt) if dt.kind == "i" else fits_float(v, dt) for v in values]
    text = [str(v) for v in values]
    if all(fits):
        w = read_weights(tmp_path, fmt, text, dtype=dtype, field=field)
        assert w.dtype == dt
        assert [int(x) for x in w.tolist()] == values
    else:
        k = fits.index(False)
        what = f"does not fit {dt}" if dt.kind == "i" else f"not exactly representable in {dt}"
        path = tmp_path / SUFFIX[fmt]
        path.write_text(weighted_file(fmt, text, field))
        with pytest.raises(GraphFormatError, match=what) as info:
            graphs.read(path, dtype=dtype)
        assert info.value.line == arc_line(fmt, k)
        assert f"(value {values[k]})" in str(info.value) and str(path) in str(info.value)


@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("value", ["99999999999999999999", "-99999999999999999999", str(2**63 + 1), str(-(2**63) - 1)])
def test_beyond_int64_is_an_error_in_every_dtype(tmp_path, fmt, value):
    for dtype in (None, np.int64, np.int32, np.float32):
        e = expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, ["1", value], "integer"), arc_line(fmt, 1),
                         f"(value {value})", dtype=dtype)
        assert "fit" in e.what or "representable" in e.what
    # Beyond int64 but exactly a float64: read exactly (the int64 parser's saturation is not the value).
    for v in (2**63, -(2**63), 2**64, -(2**70), 3 * 2**80):
        assert read_weights(tmp_path, fmt, ["1", str(v)], field="integer").tolist() == [1.0, float(v)]


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_sentinels_are_not_weights(tmp_path, dtype):
    info = np.iinfo(dtype)
    for v in (info.max, info.min, int(info.max) + 1, int(info.min) - 1):
        expect_error(tmp_path, "g.gr", f"p sp 2 1\na 1 2 {v}\n", 2, f"does not fit {np.dtype(dtype)}",
                     f"(value {v})", dtype=dtype)
    w = read_weights(tmp_path, "dimacs", [str(info.max - 1), str(info.min + 1)], dtype=dtype)
    assert w.tolist() == [info.max - 1, info.min + 1]


def test_int32_does_not_wrap(tmp_path):
    expect_error(tmp_path, "g.gr", "p sp 2 1\na 1 2 3000000000\n", 2, "does not fit int32", "(value 3000000000)",
                 dtype=np.int32)


@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("value", ["2.7", "2.0", "1e300", "1e3", "-0.5", ".5", "inf", "nan"])
@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_dtypes_take_integer_literals_only(tmp_path, fmt, value, dtype):
    expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, ["4", "5", value]), arc_line(fmt, 2),
                 f"{value!r} is not an integer", dtype=dtype)


# -- float literals ------------------------------------------------------------------------
@FUNCTION_TMP
@given(st.sampled_from(FMT), st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=6),
       st.sampled_from([None, np.float32]))
def test_float_literals_round_to_nearest(tmp_path, fmt, values, dtype):
    dt = np.dtype(np.float64 if dtype is None else dtype)
    with np.errstate(over="ignore"):
        want = np.asarray(values, dtype=np.float64).astype(dt)
    text = [repr(float(v)) for v in values]
    if np.isfinite(want).all():
        w = read_weights(tmp_path, fmt, text, dtype=dtype)
        assert w.dtype == dt
        np.testing.assert_array_equal(w, want)
    else:
        k = int(np.argmax(~np.isfinite(want)))
        expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, text), arc_line(fmt, k), f"overflows {dt}",
                     f"(value {text[k]})", dtype=dtype)


@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("value", ["1e400", "-1e309", "2e308", "1.8e308", "123456789e301"])
def test_float64_overflow_is_an_error(tmp_path, fmt, value):
    e = expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, ["0.5", value]), arc_line(fmt, 1),
                     "overflows float64", f"(value {value})")
    assert isinstance(e, ValueError)


def test_float32_overflow_and_underflow(tmp_path):
    expect_error(tmp_path, "g.txt", "0 1 1e39\n", 1, "overflows float32", "(value 1e39)", dtype=np.float32)
    assert read_weights(tmp_path, "snap", ["1e-400", "1e-50"]).tolist() == [0.0, 1e-50]
    assert read_weights(tmp_path, "snap", ["1e-50", "3.4e38"], dtype=np.float32).tolist() == [0.0,
                                                                                               float(np.float32(3.4e38))]


@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "+nan"])
def test_nan_weights_name_file_and_line(tmp_path, fmt, value):
    for dtype in (None, np.float32):
        expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, ["1.5", "2", value, "3"]), arc_line(fmt, 2),
                     "NaN", f"(value {value})", dtype=dtype)


@pytest.mark.parametrize("fmt", FMT)
@pytest.mark.parametrize("value", ["inf", "-inf", "Infinity", "+INF"])
def test_infinite_weights_are_an_error(tmp_path, fmt, value):
    expect_error(tmp_path, SUFFIX[fmt], weighted_file(fmt, ["1", value]), arc_line(fmt, 1), "infinite weight",
                 f"(value {value})")


@FUNCTION_TMP
@given(st.integers(1, 300), st.data())
def test_the_first_bad_value_of_a_long_file_is_named(tmp_path, m, data):
    k = data.draw(st.integers(0, m - 1))
    bad = data.draw(st.sampled_from(["nan", "inf", "1e999", "99999999999999999999", "x"]))
    fmt = data.draw(st.sampled_from(FMT))
    values = [str(i % 7) for i in range(m)]
    values[k] = bad
    path = tmp_path / SUFFIX[fmt]
    path.write_text(weighted_file(fmt, values))
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path)
    assert info.value.line == arc_line(fmt, k) and bad in str(info.value)


# -- 3. sizes and ids: checked before allocating --------------------------------------------
def quick_error(tmp_path, name, text, line, *patterns):
    """The error comes before anything of the declared size is allocated (measured: the peak allocation)."""
    tracemalloc.start()
    try:
        e = expect_error(tmp_path, name, text, line, *patterns)
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB allocated"
    return e


HUGE = [LIMIT + 1, 2**31 + 5, 3_000_000_000, 2**32, 2**63 - 1, 2**63, 2**64, 10**30]


@pytest.mark.parametrize("n", HUGE)
def test_huge_vertex_counts(tmp_path, n):
    quick_error(tmp_path, "g.gr", f"c big\np sp {n} 1\na 1 2 3\n", 2, "too large", f"(value {n})", "int32",
                str(LIMIT))
    quick_error(tmp_path, "g.mtx", f"%%MatrixMarket matrix coordinate real general\n% c\n{n} {n} 1\n1 2 3\n", 3,
                "too large", f"(value {n})", "int32")
    quick_error(tmp_path, "g.mtx", f"%%MatrixMarket matrix coordinate pattern general\n3 {n} 1\n1 2\n", 2,
                "column count", f"(value {n})")
    quick_error(tmp_path, "g.txt", f"# Directed graph\n# Nodes: {n} Edges: 1\n0 1\n", 2, "Nodes:", "too large",
                f"(value {n})")


@pytest.mark.parametrize("vid", [LIMIT, *HUGE])
@pytest.mark.parametrize("weights", ["", " 1", " 1.5"])
def test_huge_snap_ids(tmp_path, vid, weights):
    quick_error(tmp_path, "g.txt", f"0 1{weights}\n{vid} 0{weights}\n", 2, "SNAP vertex id too large",
                f"(value {vid})", "int32", str(LIMIT - 1))
    quick_error(tmp_path, "g.txt", f"0 {vid}{weights}\n", 1, "too large", f"(value {vid})")


@pytest.mark.parametrize("vid", [-1, -(2**31), -(2**63), -(2**63) - 1, -(10**30)])
def test_negative_snap_ids(tmp_path, vid):
    quick_error(tmp_path, "g.txt", f"0 1\n1 {vid}\n", 2, "SNAP vertex ids must be >= 0", f"(value {vid})")


@pytest.mark.parametrize("vid", [0, 4, 2**31, 2**63, 2**64, -(2**63) - 1])
def test_dimacs_and_mtx_ids_out_of_range(tmp_path, vid):
    quick_error(tmp_path, "g.gr", f"p sp 3 2\na 1 2 7\na {vid} 2 7\n", 3, "DIMACS vertex ids must be in 1..3",
                f"(value {vid})")
    quick_error(tmp_path, "g.mtx", f"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 {vid} 2.5\n", 3,
                "index ids must be in 1..3", f"(value {vid})")


@pytest.mark.parametrize("vid", ["1.5", "nan", "inf", "-inf"])
def test_non_integer_ids_in_float_files(tmp_path, vid):
    expect_error(tmp_path, "g.txt", f"0 1 2.5\n{vid} 1 2.5\n", 2, "vertex ids must be integers", f"(value {vid})")


def test_ids_up_to_the_limit_are_kept_exactly(tmp_path):
    # Largest ids that do not make the graph huge: the check is on the value, not a rounded float.
    path = tmp_path / "g.txt"
    path.write_text("# Nodes: 5\n0 4 1.5\n4 0 2.5\n")
    G = graphs.read(path)
    assert G.n == 5 and G.edges()[1].tolist() == [4, 0]


# -- 4. gzip --------------------------------------------------------------------------------
def gz_payload() -> bytes:
    return gzip.compress("".join(f"{i} {(i * 7) % 1000} {i % 13}\n" for i in range(3000)).encode())


@given(st.data())
@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_truncated_gzip_names_the_file(tmp_path, data):
    raw = gz_payload()
    cut = data.draw(st.integers(3, len(raw) - 1))
    path = tmp_path / "g.txt.gz"
    path.write_bytes(raw[:cut])
    with pytest.raises(GraphFormatError) as info:
        graphs.read(path)
    assert str(path) in str(info.value) and info.value.line is None
    assert "gzip" in str(info.value)


@given(st.data())
@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_corrupt_gzip_names_the_file(tmp_path, data):
    raw = bytearray(gz_payload())
    pos = data.draw(st.integers(2, len(raw) - 1))
    raw[pos] ^= data.draw(st.integers(1, 255))
    path = tmp_path / "g.txt.gz"
    path.write_bytes(bytes(raw))
    try:
        G = graphs.read(path)
    except GraphFormatError as e:
        assert str(path) in str(e)
    else:  # a flipped byte of the header's mtime or OS field changes nothing (the data has a CRC)
        assert G.nnz == 3000 and pos < 10


def test_gzip_without_extension_and_bad_line_inside(tmp_path):
    path = tmp_path / "g.gr"
    path.write_bytes(gzip.compress(b"p sp 2 1\na 1 2 nan\n"))
    with pytest.raises(GraphFormatError, match="NaN") as info:
        graphs.read(path)
    assert info.value.line == 2
    path.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(GraphFormatError, match="gzip"):
        graphs.read(path)


# -- 5. speed ---------------------------------------------------------------------------------
def test_large_weighted_files_are_read_without_python_per_line(tmp_path):
    """300,000 weighted lines read by compiled code: the Python calls made do not grow with the lines.

    Counted (``sys.setprofile``), not timed, so the machine's load cannot change the verdict: a
    reader that fell back to Python for each line or field would make hundreds of thousands.
    """
    rng = np.random.default_rng(0)
    m = 300_000
    src, dst = rng.integers(0, 50_000, m), rng.integers(0, 50_000, m)
    for kind, w in (("int", rng.integers(-10**6, 10**6, m).astype(str)),
                    ("float", np.char.mod("%.17g", rng.normal(size=m)))):
        path = tmp_path / f"{kind}.txt"
        lines = np.char.add(np.char.add(np.char.add(src.astype(str), " "), np.char.add(dst.astype(str), " ")), w)
        path.write_text("\n".join(lines.tolist()) + "\n")
        graphs.read(path)  # compiled kernels loaded before counting
        G, calls = python_calls(graphs.read, path)
        assert G.nnz == m and G.dtype == np.float64
        assert calls < 20_000, f"{kind}: {calls} Python calls for {m} lines"
