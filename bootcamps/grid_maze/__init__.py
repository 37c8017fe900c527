"""Bootcamp `grid_maze`: find a path through a maze shown as a picture (a visual task)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import CornerToCorner, RandomMoves
from .generator import GridMazeInstructionGenerator
from .policy import GridMazePolicy
from .reward import GridMazeRewardCalculator
from .tools import LookTool

bootcamp = Bootcamp(
    description="A maze picture: answer moves from S to G; any shortest path 1.0, longer ones less, invalid 0.",
    generator=GridMazeInstructionGenerator,
    reward=GridMazeRewardCalculator,
    policy=GridMazePolicy,
    tools=[LookTool],
    baselines=[Baseline("corner_to_corner", CornerToCorner, "no picture: right along the top, then down",
                        blind=True),
               Baseline("random_moves", RandomMoves, "no picture: rows + cols - 2 random moves", blind=True)],
    groups=[
        Group("easy", {"rows": 5, "cols": 5, "loops": 0.1, "min_distance": 4}, ratio=0.3, tools=()),
        Group("medium", {"rows": 8, "cols": 8, "loops": 0.1, "min_distance": 8}, ratio=0.4, tools=()),
        Group("hard", {"rows": 12, "cols": 12, "loops": 0.08, "min_distance": 14, "look": True}, ratio=0.3),
    ],
)
