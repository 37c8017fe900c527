"""The problem types of the al collection, by name (one module each)."""
from __future__ import annotations

from ..core import Problem
from .articulation_points import ArticulationPoints
from .assignment import Assignment
from .bin_packing import BinPacking
from .bipartite_check import BipartiteCheck
from .bipartite_matching import BipartiteMatching
from .bracket_repair import BracketRepair
from .bridges import Bridges
from .chinese_postman import ChinesePostman
from .closest_pair import ClosestPair
from .coin_change import CoinChange
from .convex_hull import ConvexHull
from .crt import Crt
from .dag_paths import DagPaths
from .determinant import Determinant
from .discrete_log import DiscreteLog
from .dominating_set_tree import DominatingSetTree
from .edit_distance import EditDistance
from .euler_path import EulerPath
from .graph_coloring import GraphColoring
from .hamiltonian_path import HamiltonianPath
from .interval_rooms import IntervalRooms
from .interval_scheduling import IntervalScheduling
from .inversion_count import InversionCount
from .job_sequencing import JobSequencing
from .josephus import Josephus
from .knapsack_2d import Knapsack2d
from .kth_pair_sum import KthPairSum
from .lca import Lca
from .lcs import Lcs
from .linear_recurrence import LinearRecurrence
from .linear_system import LinearSystem
from .lis import Lis
from .longest_path import LongestPath
from .matrix_chain import MatrixChain
from .max_clique import MaxClique
from .max_flow import MaxFlow
from .max_subarray import MaxSubarray
from .min_cost_flow import MinCostFlow
from .min_cut import MinCut
from .mst import Mst
from .nim import Nim
from .optimal_bst import OptimalBst
from .palindrome_partition import PalindromePartition
from .palindrome_subsequence import PalindromeSubsequence
from .partition_count import PartitionCount
from .path_cover import PathCover
from .permutation_rank import PermutationRank
from .polygon_area import PolygonArea
from .rod_cutting import RodCutting
from .scc import Scc
from .scs import Scs
from .set_cover import SetCover
from .shortest_path import ShortestPath
from .stable_matching import StableMatching
from .subset_sum import SubsetSum
from .topological_order import TopologicalOrder
from .tree_diameter import TreeDiameter
from .tsp import Tsp
from .two_sat import TwoSat
from .vertex_cover_bipartite import VertexCoverBipartite
from .vertex_cover_tree import VertexCoverTree
from .widest_path import WidestPath
from .word_break import WordBreak

PROBLEMS: dict[str, type[Problem]] = {cls.name: cls for cls in (
    ArticulationPoints, Assignment, BinPacking, BipartiteCheck, BipartiteMatching, BracketRepair, Bridges,
    ChinesePostman, ClosestPair, CoinChange, ConvexHull, Crt, DagPaths, Determinant, DiscreteLog, DominatingSetTree,
    EditDistance, EulerPath, GraphColoring, HamiltonianPath, IntervalRooms, IntervalScheduling, InversionCount,
    JobSequencing, Josephus, Knapsack2d, KthPairSum, Lca, Lcs, LinearRecurrence, LinearSystem, Lis, LongestPath,
    MatrixChain, MaxClique, MaxFlow, MaxSubarray, MinCostFlow, MinCut, Mst, Nim, OptimalBst, PalindromePartition,
    PalindromeSubsequence, PartitionCount, PathCover, PermutationRank, PolygonArea, RodCutting, Scc, Scs, SetCover,
    ShortestPath, StableMatching, SubsetSum, TopologicalOrder, TreeDiameter, Tsp, TwoSat, VertexCoverBipartite,
    VertexCoverTree, WidestPath, WordBreak)}
