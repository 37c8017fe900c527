"""A root harness lends each run a pool uid; a uid that still owns a process, even a zombie nobody has waited for,
is passed over: the kernel counts zombies against the run's process limit and bubblewrap's first fork failed
("Can't fork for pid 1: Resource temporarily unavailable"), a correct answer scored 0."""
from __future__ import annotations

import os
import time

import pytest

from bc_common import sandbox


@pytest.mark.skipif(os.geteuid() != 0, reason="pool uids are lent only by a root harness")
def test_a_uid_owning_a_zombie_is_not_lent():
    with sandbox._claim_uid() as first:  # the uid the next run would get on this machine now
        pass
    pid = os.fork()
    if pid == 0:  # the child becomes the uid's process, then dies unwaited: a zombie of `first`
        os.setgid(first)
        os.setuid(first)
        os._exit(0)
    try:
        for _ in range(500):  # until the child has exited: a zombie of `first` until waited for
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rpartition(")")[2].split()[0] == "Z":
                    break
            time.sleep(0.01)
        assert sandbox._owner(pid) == first and first in sandbox._uids_in_use()
        assert pid not in sandbox._processes_of(first)  # not a live process: the old check let it through
        with sandbox._claim_uid() as lent:
            assert lent != first
    finally:
        os.waitpid(pid, 0)
