"""Bootcamp `arithmetic`: evaluate + - × ÷ expressions with a calculator tool and retry feedback."""
from pathlib import Path

from bc_common.bootcamp import Bootcamp

from .generator import ArithmeticInstructionGenerator
from .policy import ArithmeticPolicy
from .reward import ArithmeticRewardCalculator

CONFIGS = Path(__file__).parent / "configs"

bootcamp = Bootcamp(
    name="arithmetic",
    description="Evaluate + - × ÷ expressions exactly; calculator tool; feedback and retries on wrong answers.",
    generator=ArithmeticInstructionGenerator,
    reward=ArithmeticRewardCalculator,
    policy=ArithmeticPolicy,
    tool_config=CONFIGS / "tool_config.yaml",
    interaction_config=CONFIGS / "interaction_config.yaml",
    instruction_config=CONFIGS / "instruction_config.yaml",
    default_config={},
)
