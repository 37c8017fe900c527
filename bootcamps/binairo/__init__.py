"""Bootcamp `binairo`: complete a 0/1 grid under the takuzu rules; a `check_grid` tool lists broken rules."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
from .generator import BinairoInstructionGenerator
from .policy import BinairoPolicy
from .reward import BinairoRewardCalculator
from .tools import CheckGridTool

bootcamp = Bootcamp(
    description="Binairo (takuzu): fill a 0/1 grid with balanced, non-repeating lines; unique solution; check tool.",
    generator=BinairoInstructionGenerator,
    reward=BinairoRewardCalculator,
    policy=BinairoPolicy,
    tools=[CheckGridTool],
    groups=[
        Group("easy", {"size": 6, "extra_givens": 0.3}, ratio=0.3),
        Group("medium", {"size": 8}, ratio=0.4),
        Group("hard", {"size": 10}, ratio=0.3),
    ],
    baselines=BASELINES,
)
