"""Our bootcamps inside other trainers' environment APIs, each an optional extra tested against the real peer.

    stepped         one trajectory of bc-eval's own rollout loop, driven one assistant message at a time from
                    outside (`SteppedTrajectory`): every adapter plays through it, so tools, interactions, turn
                    budgets and the verifier behave exactly as under `bc-eval`
    policy_server   an OpenAI-compatible chat server whose model is a built-in policy (`builtin:reference`, ...)
                    of the tasks it was given: a peer's own runner plays our reference policy through it
    vf_env          verifiers 0.4 (`pip install -e '.[verifiers]'`): taskset, harness and reward; loaded by the
                    top-level package `bc_verifiers` (taskset id `bc-verifiers`), docs/interop-verifiers.md
    openenv_env     OpenEnv 0.10 (`pip install -e '.[openenv]'`): an environment server for any bootcamp,
                    reset/step and MCP-style tools, docs/interop-openenv.md
    nemo_gym_env    NeMo Gym 0.4 (a Python 3.12 virtualenv, `pip install -e '.[nemo-gym]'`): a resources server for
                    any bootcamp (seed_session, tools as endpoints, verify; reset/step for gymnasium_agent),
                    docs/interop-nemo-gym.md
    nemo_gym_project  `init` (NeMo Gym's server folder and config) and `export` (bc-gen rows as its dataset rows);
                    needs no peer

Importing this package imports no peer; `vf_env`, `openenv_env` and `nemo_gym_env` need their extra.
"""
