"""Which adapted bootcamps (a collection's `prefix/name`) CI's slow per-bootcamp tests cover: a fixed sample of
the large collections, every one of the small; `make test-adapters-full` (BC_ADAPTERS_FULL=1) covers them all."""
from __future__ import annotations

import os

# default-available rg datasets CI checks every run (quick ones of several kinds: grids, numbers, puzzles, a mix)
RG_SAMPLE = ("rg/arc_1d", "rg/base_conversion", "rg/bitwise_arithmetic", "rg/count_primes", "rg/cryptarithm",
             "rg/decimal_arithmetic", "rg/fraction_simplification", "rg/composite")
# rc tasks of several kinds (code, planning, induction, strings; a decision among labels): items cost 0.1-0.4 s
RC_SAMPLE = ("rc/controlled_code_execution", "rc/planning", "rc/sequential_induction", "rc/string_transduction",
             "rc/defeasible_nli")
# os games (connection games): a row costs 0.05-0.15 s
OS_SAMPLE = ("os/hex",)
# pencil puzzles (SAT-proved unique): a tents row costs 0.02-0.07 s
PZ_SAMPLE = ("pz/tents",)
# interactive puzzles (a move tool, several turns): a sliding-tile row costs about 5 ms once the table is built
GM_SAMPLE = ("gm/sliding_tile",)
# formal languages and logic (single reply): a row costs 1-100 ms
FL_SAMPLE = ("fl/cnf_sat",)
# symbolic mathematics (SymPy, single reply): a limit row costs a few milliseconds
SY_SAMPLE = ("sy/limit",)
SAMPLES = {"rg": RG_SAMPLE, "rc": RC_SAMPLE, "os": OS_SAMPLE, "pz": PZ_SAMPLE, "gm": GM_SAMPLE, "fl": FL_SAMPLE,
           "sy": SY_SAMPLE}


def sampled(names: list[str]) -> list[str]:
    """`names` with the sampled collections cut to their samples (all of them under BC_ADAPTERS_FULL=1)."""
    if os.environ.get("BC_ADAPTERS_FULL"):
        return list(names)
    return [n for n in names if "/" not in n or n.partition("/")[0] not in SAMPLES
            or n in SAMPLES[n.partition("/")[0]]]
