"""How much memory this process may still use: the smallest of what the machine, its resource limits and its control group allow.

A process runs out of memory at whichever limit it meets first, and on a
shared machine, in a container or under ``ulimit -v`` that is rarely the
machine's free memory.  :func:`usable_memory` is the one place that reads
every such limit (:func:`memory_limits` lists them by source); the planner
(:mod:`apsp.planner`) budgets its routes against it, and the graph checks of
:mod:`graphs.validate` size their arrays against it.

The sources (Linux; each is skipped where it cannot be read or is not set):

``"available"``
    ``MemAvailable`` of ``/proc/meminfo`` (free memory plus the page cache and
    slabs the kernel can reclaim), else ``os.sysconf("SC_AVPHYS_PAGES")``
    pages (free memory only).
``"address_space"``
    The soft ``RLIMIT_AS`` (``ulimit -v``) minus ``VmSize`` of
    ``/proc/self/status``: every mapping counts, shared libraries and
    memory-mapped files included.
``"data"``
    The soft ``RLIMIT_DATA`` (``ulimit -d``) minus ``VmData`` (the private
    writable mappings, which is what Linux 4.7 and later charge to it).
``"cgroup"``
    The memory limit of the process's control group and of each of its
    ancestors, minus that group's usage: cgroup v2 ``memory.max`` minus
    ``memory.current``, cgroup v1 ``memory.limit_in_bytes`` (and
    ``hierarchical_memory_limit`` of ``memory.stat``) minus
    ``memory.usage_in_bytes``; the group's inactive file cache
    (``inactive_file`` / ``total_inactive_file`` of ``memory.stat``), which
    the kernel reclaims before it fails an allocation, does not count as
    used.  Groups are found through ``/proc/self/cgroup`` and
    ``/proc/self/mountinfo``.

A headroom below zero (a process already past its limit) is reported as 0.
"""

from __future__ import annotations

import os
from pathlib import Path

try:  # not on Windows
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

__all__ = ["usable_memory", "memory_limits", "SOURCES"]

#: What each source of :func:`memory_limits` is, in words (for messages).
SOURCES: dict[str, str] = {
    "available": "the memory available on this machine (MemAvailable)",
    "address_space": "the address-space limit (ulimit -v, RLIMIT_AS) less what this process maps",
    "data": "the data limit (ulimit -d, RLIMIT_DATA) less this process's data",
    "cgroup": "the control group's memory limit less its usage",
}

#: Where ``/proc`` is (a test points it at a fake tree).
PROC = Path("/proc")
#: cgroup limits at or above this are "no limit" (v1 writes 2**63 - 4096 for none).
NO_LIMIT = 2**60


def usable_memory() -> int | None:
    """Bytes of memory this process may still allocate: the smallest limit of :func:`memory_limits`.

    That is the least of the machine's available memory (``MemAvailable``,
    else ``SC_AVPHYS_PAGES``), the ``RLIMIT_AS`` and ``RLIMIT_DATA`` headroom
    (the soft limit minus the process's ``VmSize`` / ``VmData``) and the
    headroom of its control group (v2 ``memory.max - memory.current``, v1
    ``memory.limit_in_bytes - memory.usage_in_bytes``, over the group and its
    ancestors); the module docstring gives the details.  ``None`` when no
    source can be read (not Linux, no ``sysconf``).

    It is a snapshot: mapping files, loading libraries or starting threads
    afterwards uses some of it.

    Examples
    --------
    >>> m = usable_memory()
    >>> m is None or m >= 0
    True
    >>> m is None or m <= min(memory_limits().values())
    True
    """
    limits = memory_limits()
    return min(limits.values()) if limits else None


def memory_limits() -> dict[str, int]:
    """Bytes each source lets this process still allocate, by source name (see :data:`SOURCES`).

    Sources that are not set (no ``ulimit``, no cgroup limit) or cannot be
    read are left out.

    >>> set(memory_limits()) <= set(SOURCES)
    True
    """
    status = _proc_status()
    found = {
        "available": _available(),
        "address_space": _rlimit_headroom("RLIMIT_AS", status.get("VmSize")),
        "data": _rlimit_headroom("RLIMIT_DATA", status.get("VmData")),
        "cgroup": _cgroup_headroom(),
    }
    return {k: max(0, int(v)) for k, v in found.items() if v is not None}


# -- the sources ----------------------------------------------------------------------------
def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError):
        return None


def _kib_fields(text: str | None) -> dict[str, int]:
    """``Key:  123 kB`` lines (``/proc/meminfo``, ``/proc/self/status``) as bytes."""
    out: dict[str, int] = {}
    for line in (text or "").splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if len(parts) == 2 and parts[1] == "kB" and parts[0].isdigit():
            out[key.strip()] = int(parts[0]) * 1024
    return out


def _proc_status() -> dict[str, int]:
    return _kib_fields(_read(PROC / "self" / "status"))


def _available() -> int | None:
    avail = _kib_fields(_read(PROC / "meminfo")).get("MemAvailable")
    if avail is not None:
        return avail
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def _getrlimit(name: str) -> int | None:
    """The soft limit ``resource.<name>`` in bytes, ``None`` when unlimited or unknown."""
    if resource is None or not hasattr(resource, name):  # pragma: no cover - not POSIX
        return None
    soft, _ = resource.getrlimit(getattr(resource, name))
    return None if soft == resource.RLIM_INFINITY or soft < 0 else int(soft)


def _rlimit_headroom(name: str, used: int | None) -> int | None:
    limit = _getrlimit(name)
    if limit is None:
        return None
    return limit - (used or 0)


def _cgroup_headroom() -> int | None:
    """The least headroom over the process's cgroups (v2 and v1 memory controller) and their ancestors."""
    groups = _cgroup_dirs()
    rooms = [r for r in (_v2_headroom(d, top) for d, top in groups.get("v2", [])) if r is not None]
    rooms += [r for r in (_v1_headroom(d) for d, _ in groups.get("v1", [])) if r is not None]
    return min(rooms) if rooms else None


def _cgroup_dirs() -> dict[str, list[tuple[Path, Path]]]:
    """``{"v2": [(dir, mount)], "v1": [(dir, mount)]}``: the process's memory cgroup directories."""
    paths: dict[str, str] = {}
    for line in (_read(PROC / "self" / "cgroup") or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        hid, controllers, path = parts
        if hid == "0" and controllers == "":
            paths["v2"] = path
        elif "memory" in controllers.split(","):
            paths["v1"] = path
    out: dict[str, list[tuple[Path, Path]]] = {}
    for line in (_read(PROC / "self" / "mountinfo") or "").splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        root, mount, fstype, options = fields[3], Path(fields[4]), tail[0], tail[2].split(",")
        kind = "v2" if fstype == "cgroup2" else "v1" if fstype == "cgroup" and "memory" in options else None
        if kind is None or kind not in paths:
            continue
        path = paths[kind]
        rel = path[len(root):] if root != "/" and path.startswith(root) else path
        d = mount / rel.lstrip("/")
        out.setdefault(kind, []).append((d if d.is_dir() else mount, mount))
    return out


def _number(text: str | None) -> int | None:
    """An integer file's value; ``None`` for ``max``, unreadable or a no-limit value."""
    if text is None:
        return None
    text = text.strip()
    if not text.isdigit():
        return None
    v = int(text)
    return None if v >= NO_LIMIT else v


def _stat(d: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in (_read(d / "memory.stat") or "").splitlines():
        key, _, value = line.partition(" ")
        if value.strip().isdigit():
            out[key] = int(value)
    return out


def _v2_headroom(d: Path, top: Path) -> int | None:
    """The least ``memory.max - (memory.current - inactive_file)`` from ``d`` up to the mount point."""
    rooms = []
    while True:
        limit = _number(_read(d / "memory.max"))
        if limit is not None:
            used = _number(_read(d / "memory.current")) or 0
            rooms.append(limit - max(0, used - _stat(d).get("inactive_file", 0)))
        if d == top or top not in d.parents:
            break
        d = d.parent
    return min(rooms) if rooms else None


def _v1_headroom(d: Path) -> int | None:
    """``limit - (usage - total_inactive_file)``; the limit also bounded by the ancestors' (memory.stat)."""
    stat = _stat(d)
    limits = [v for v in (_number(_read(d / "memory.limit_in_bytes")),
                          _number(str(stat.get("hierarchical_memory_limit", "")))) if v is not None]
    if not limits:
        return None
    used = _number(_read(d / "memory.usage_in_bytes")) or 0
    return min(limits) - max(0, used - stat.get("total_inactive_file", 0))
