"""Bootcamp `fact_summary`: summarise a generated fact sheet within a word limit; exact facts checked by code,
coverage and faithfulness by an LLM judge (a rubric reward)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import CopySheetPolicy, FirstWordsPolicy
from .generator import FactSummaryInstructionGenerator
from .policy import FactSummaryPolicy
from .reward import FactSummaryRewardCalculator

bootcamp = Bootcamp(
    description="Summarise a generated company fact sheet within a word limit: required facts checked exactly, "
                "coverage and faithfulness by an LLM judge.",
    generator=FactSummaryInstructionGenerator,
    reward=FactSummaryRewardCalculator,
    policy=FactSummaryPolicy,
    baselines=[Baseline("copy_sheet", CopySheetPolicy, "the whole sheet as the summary (over the word limit)"),
               Baseline("first_words", FirstWordsPolicy, "the sheet's first sentences cut at the word limit")],
    # harder: more facts to find, more of them required, fewer words
    groups=[Group("easy", {"facts": 8, "required": 3, "filler": 2, "max_words": 45}, ratio=0.3),
            Group("medium", {"facts": 10, "required": 4, "filler": 3, "max_words": 40}, ratio=0.5),
            Group("hard", {"facts": 12, "required": 5, "filler": 4, "max_words": 35}, ratio=0.2)],
)
