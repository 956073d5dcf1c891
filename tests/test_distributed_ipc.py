"""apsp.distributed.ipc without a GPU: what a panel pickles to, and a spilled panel read back in its own process.

The cross-process path (a handle mapped by another worker and copied GPU to
GPU) runs in tests/test_distributed_gpu.py on the device machines.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest

import semiring as sr
from apsp.distributed import ipc
from apsp.distributed.rows import RowLayout, RunSpec, build, drop_run, panel, result_rows, update


class _HostSlot:
    """A stand-in for a PanelSlot: host arrays instead of exported device buffers."""

    def __init__(self, D, P=None):
        self.D, self.P = D, P

    def views(self, rows):
        return [self.D[:rows]] + ([self.P[:rows]] if self.P is not None else [])


def _exported(token, D, P=None):
    parts = [(b"d" * 64, D.shape, D.dtype.str)] + ([(b"p" * 64, P.shape, P.dtype.str)] if P is not None else [])
    return ipc.ExportedPanel((D, P), ipc.RemotePanel(token, 0, os.getpid(), tuple(parts)))


def test_a_panel_pickles_to_its_handles_and_reads_back_in_its_own_process(monkeypatch):
    D = np.arange(12.0).reshape(3, 4)
    P = np.arange(12, dtype=np.int32).reshape(3, 4)
    monkeypatch.setitem(ipc._EXPORTS, ("tok-a", 0), _HostSlot(D, P))
    E = _exported("tok-a", D[:2], P[:2])
    assert E[0] is not None and len(pickle.dumps(E)) < 600  # handles, shapes and dtypes: not the data
    back = pickle.loads(pickle.dumps(E))
    assert isinstance(back, ipc.RemotePanel) and back.pid == os.getpid()
    d, p = back.arrays()
    np.testing.assert_array_equal(d, D[:2])
    np.testing.assert_array_equal(p, P[:2])
    again = pickle.loads(pickle.dumps(back))  # a worker may pass on what it received
    assert (again.token, again.owner, again.parts) == (back.token, back.owner, back.parts)


def test_a_dropped_run_no_longer_resolves():
    slot = _HostSlot(np.ones((2, 3)))
    ipc._EXPORTS[("tok-b", 0)] = slot
    back = pickle.loads(pickle.dumps(_exported("tok-b", slot.D)))
    assert ipc.drop_exports("tok-b") == 1
    with pytest.raises(RuntimeError, match="no longer holds the panel"):
        back.arrays()


def _closure_one_worker(token, W, spill):
    """The driver's schedule on one worker of three 1-row blocks; with ``spill``, every panel reaches the tasks
    that use it as Dask reads back a spilled result: pickled, so a RemotePanel of this process."""
    spec = RunSpec(token, RowLayout(3, 1, 1), sr.min_plus, np.dtype(np.float64), False, "cpu")
    build(spec, 0, [W[0:1], W[1:2], W[2:3]], True, False, "dense")
    slots = []

    def handed(R, k):
        if not spill:
            return R
        slot = _HostSlot(R[0].copy())  # what the owner's exported slot holds
        slots.append(slot)
        ipc._EXPORTS[(token, k)] = slot
        E = ipc.ExportedPanel((slot.D, None), ipc.RemotePanel(token, k, os.getpid(), ((b"d" * 64, slot.D.shape,
                                                                                       slot.D.dtype.str),)))
        return pickle.loads(pickle.dumps(E))

    R = handed(panel(spec, 0, 0, None, None), 0)
    chain = R
    for k in range(3):
        if k + 1 < 3:
            nxt = handed(panel(spec, 0, k + 1, R, chain), k + 1)
            chain = nxt
        chain = update(spec, 0, k, R, chain)
        if k + 1 < 3:
            R = nxt
    D = np.concatenate([result_rows(spec, 0, k, 0, False, None) for k in range(3)])
    drop_run(token)
    return D, slots


def test_a_spilled_panel_of_its_own_process_is_read_from_its_slot():
    """Dask may spill a result and read it back: the owner's panel and update tasks then get the RemotePanel."""
    W = np.array([[0.0, 4.0, np.inf], [np.inf, 0.0, 1.0], [1.0, np.inf, 0.0]])
    plain, _ = _closure_one_worker("spill-plain", W, spill=False)
    spilled, slots = _closure_one_worker("spill-read", W, spill=True)
    np.testing.assert_array_equal(plain, [[0.0, 4.0, 5.0], [2.0, 0.0, 1.0], [1.0, 5.0, 0.0]])
    np.testing.assert_array_equal(spilled, plain)
    assert len(slots) == 3 and ipc.shared_runs()["exports"] == []
