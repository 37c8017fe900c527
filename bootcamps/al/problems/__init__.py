"""The problem types of the al collection, by name (one module each)."""
from __future__ import annotations

from ..core import Problem
from .assignment import Assignment
from .bin_packing import BinPacking
from .bipartite_matching import BipartiteMatching
from .bracket_repair import BracketRepair
from .closest_pair import ClosestPair
from .coin_change import CoinChange
from .convex_hull import ConvexHull
from .crt import Crt
from .dag_paths import DagPaths
from .determinant import Determinant
from .discrete_log import DiscreteLog
from .edit_distance import EditDistance
from .euler_path import EulerPath
from .graph_coloring import GraphColoring
from .hamiltonian_path import HamiltonianPath
from .interval_rooms import IntervalRooms
from .interval_scheduling import IntervalScheduling
from .job_sequencing import JobSequencing
from .josephus import Josephus
from .knapsack_2d import Knapsack2d
from .lca import Lca
from .lcs import Lcs
from .linear_recurrence import LinearRecurrence
from .linear_system import LinearSystem
from .lis import Lis
from .longest_path import LongestPath
from .matrix_chain import MatrixChain
from .max_clique import MaxClique
from .max_subarray import MaxSubarray
from .min_cut import MinCut
from .mst import Mst
from .nim import Nim
from .palindrome_partition import PalindromePartition
from .partition_count import PartitionCount
from .permutation_rank import PermutationRank
from .polygon_area import PolygonArea
from .rod_cutting import RodCutting
from .scc import Scc
from .scs import Scs
from .shortest_path import ShortestPath
from .stable_matching import StableMatching
from .subset_sum import SubsetSum
from .topological_order import TopologicalOrder
from .tree_diameter import TreeDiameter
from .two_sat import TwoSat
from .vertex_cover_tree import VertexCoverTree
from .word_break import WordBreak

PROBLEMS: dict[str, type[Problem]] = {cls.name: cls for cls in (
    Assignment, BinPacking, BipartiteMatching, BracketRepair, ClosestPair, CoinChange, ConvexHull, Crt, DagPaths,
    Determinant, DiscreteLog, EditDistance, EulerPath, GraphColoring, HamiltonianPath, IntervalRooms,
    IntervalScheduling, JobSequencing, Josephus, Knapsack2d, Lca, Lcs, LinearRecurrence, LinearSystem, Lis,
    LongestPath, MatrixChain, MaxClique, MaxSubarray, MinCut, Mst, Nim, PalindromePartition, PartitionCount,
    PermutationRank, PolygonArea, RodCutting, Scc, Scs, ShortestPath, StableMatching, SubsetSum, TopologicalOrder,
    TreeDiameter, TwoSat, VertexCoverTree, WordBreak)}
