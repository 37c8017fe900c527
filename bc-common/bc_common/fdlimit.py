"""The open-file limit of this process, raised to what the system allows.

Many systems start processes at a soft limit of 1,024 descriptors while allowing far more: a bc-eval run at
-c 1000 holds a socket per call, a toolserve master a connection per session, a verifier three pipes per sandboxed
run. Every command calls `raise_open_file_limit()` first (what servers such as nginx and Ray do), so the soft limit
is never the reason a run fails.
"""
from __future__ import annotations

import resource

CEILING = 1 << 20  # where the hard limit is unlimited


def raise_open_file_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard one (or CEILING); return the soft limit now in force."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ValueError, OSError):
        return 1024
    if soft == resource.RLIM_INFINITY:
        return CEILING
    target = CEILING if hard == resource.RLIM_INFINITY else hard
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            pass
    return soft
