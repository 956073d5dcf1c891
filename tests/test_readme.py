"""The README's Python examples run as written (in a fresh folder, on generated graphs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_python_examples():
    assert BLOCKS, "no ```python block found in README.md"


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no data files around: examples must not need any
    exec(compile(code, "README.md python block", "exec"), {"__name__": "__readme__"})
