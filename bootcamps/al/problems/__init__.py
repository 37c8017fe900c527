"""The problem types of the al collection, by name (one module each)."""
from __future__ import annotations

from ..core import Problem
from .assignment import Assignment
from .bipartite_matching import BipartiteMatching
from .coin_change import CoinChange
from .crt import Crt
from .discrete_log import DiscreteLog
from .edit_distance import EditDistance
from .interval_scheduling import IntervalScheduling
from .josephus import Josephus
from .lcs import Lcs
from .linear_recurrence import LinearRecurrence
from .lis import Lis
from .matrix_chain import MatrixChain
from .min_cut import MinCut
from .mst import Mst
from .scc import Scc
from .shortest_path import ShortestPath
from .subset_sum import SubsetSum
from .topological_order import TopologicalOrder
from .two_sat import TwoSat

PROBLEMS: dict[str, type[Problem]] = {cls.name: cls for cls in (
    Assignment, BipartiteMatching, CoinChange, Crt, DiscreteLog, EditDistance, IntervalScheduling, Josephus, Lcs,
    LinearRecurrence, Lis, MatrixChain, MinCut, Mst, Scc, ShortestPath, SubsetSum, TopologicalOrder, TwoSat)}
