"""The task types of the fl collection, by name (one module each)."""
from __future__ import annotations

from ..core import Task
from .cellular_automaton import CellularAutomaton
from .cfg_ambiguity import CfgAmbiguity
from .cfg_derivation import CfgDerivation
from .cfg_member import CfgMember
from .cnf_sat import CnfSat
from .countermodel import Countermodel
from .ctl_check import CtlCheck
from .dfa_distinguish import DfaDistinguish
from .dfa_minimize import DfaMinimize
from .horn_least_model import HornLeastModel
from .knights_knaves import KnightsKnaves
from .lambda_normal_form import LambdaNormalForm
from .ltl_counterexample import LtlCounterexample
from .max_sat import MaxSat
from .mealy_preimage import MealyPreimage
from .min_dnf import MinDnf
from .nfa_determinize import NfaDeterminize
from .pcp import Pcp
from .petri_reachability import PetriReachability
from .regex_synthesis import RegexSynthesis
from .register_machine import RegisterMachine
from .resolution_refutation import ResolutionRefutation
from .sat_backbone import SatBackbone
from .string_rewriting import StringRewriting
from .tag_system import TagSystem
from .turing_machine import TuringMachine
from .unification import Unification
from .wang_tiling import WangTiling

TASKS: dict[str, type[Task]] = {cls.name: cls for cls in (
    CellularAutomaton, CfgAmbiguity, CfgDerivation, CfgMember, CnfSat, Countermodel, CtlCheck, DfaDistinguish,
    DfaMinimize, HornLeastModel, KnightsKnaves, LambdaNormalForm, LtlCounterexample, MaxSat, MealyPreimage, MinDnf,
    NfaDeterminize, Pcp, PetriReachability, RegexSynthesis, RegisterMachine, ResolutionRefutation, SatBackbone,
    StringRewriting, TagSystem, TuringMachine, Unification, WangTiling)}
