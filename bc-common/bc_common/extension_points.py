"""Every way to extend the harness, named in one place.

- Bootcamps: a folder under `bootcamps/` (the built-in collection), or an entry point of group `bc.bootcamps`
  naming one manifest (`mine = "my_pkg:bootcamp"`) or a collection package (`theirs = "their_pkg"`); see
  `bc_common.catalog`. `BC_LOAD_ENTRY_POINTS=a,b` loads only those entry points.
- A bootcamp's parts: the generator, verifier, tools, interaction, reference policy and baselines it names in
  its manifest (`bc_common.bootcamp`, docs/authoring.md).
- Seed-format YAML and registries name classes by dotted path (`bc_common.classes`): a bootcamp's package, code
  in the working directory or on PYTHONPATH, or a package listed in `BC_CLASS_PACKAGES=pkg1,pkg2`.
- Models: any OpenAI-compatible server (`bc-eval --base-url`), or `builtin:reference`, `builtin:noisy`,
  `builtin:random`, `builtin:baseline/NAME` (`bc_common.builtin_model`).
- Reward kwargs of the seed (`format_score`, `format_penalty`, `short_penalty`...): `bc_common.verify_kwargs`;
  a verifier's own kwargs: `RewardCalculator.verify_kwargs`.
"""
from __future__ import annotations

BOOTCAMPS_GROUP = "bc.bootcamps"  # the entry-point group of bootcamp manifests and collections
BUILTIN_COLLECTION = "bootcamps"  # the collection package shipped with the harness
CLASS_PACKAGES_ENV = "BC_CLASS_PACKAGES"  # more packages a config may name classes from
