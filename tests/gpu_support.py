"""What the GPU test modules share: CuPy (the module is skipped without it) and the marks of a test that needs a GPU.

Use at the top of a GPU test module::

    cp, pytestmark = cupy_or_skip()
"""

from __future__ import annotations

from typing import Any

import pytest


def device_count(cp: Any) -> int:
    """CUDA devices CuPy sees (0 without a driver)."""
    try:
        return int(cp.cuda.runtime.getDeviceCount())
    except Exception:  # noqa: BLE001 - no driver
        return 0


def cupy_or_skip() -> tuple[Any, list]:
    """``(cupy, marks)``: the module skipped where CuPy is missing, its tests where no GPU is there."""
    cp = pytest.importorskip("cupy")
    return cp, [pytest.mark.gpu, pytest.mark.skipif(device_count(cp) == 0, reason="needs a CUDA GPU")]
