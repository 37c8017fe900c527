"""The task types of the fl collection, by name (one module each)."""
from __future__ import annotations

from ..core import Task
from .cellular_automaton import CellularAutomaton
from .cfg_ambiguity import CfgAmbiguity
from .cfg_member import CfgMember
from .cnf_sat import CnfSat
from .countermodel import Countermodel
from .dfa_distinguish import DfaDistinguish
from .dfa_minimize import DfaMinimize
from .knights_knaves import KnightsKnaves
from .lambda_normal_form import LambdaNormalForm
from .max_sat import MaxSat
from .min_dnf import MinDnf
from .pcp import Pcp
from .regex_synthesis import RegexSynthesis
from .string_rewriting import StringRewriting
from .turing_machine import TuringMachine
from .unification import Unification

TASKS: dict[str, type[Task]] = {cls.name: cls for cls in (
    CellularAutomaton, CfgAmbiguity, CfgMember, CnfSat, Countermodel, DfaDistinguish, DfaMinimize, KnightsKnaves, LambdaNormalForm, MaxSat, MinDnf, Pcp,
    RegexSynthesis, StringRewriting, TuringMachine,
    Unification)}
