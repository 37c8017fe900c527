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

Importing this package imports no peer; `vf_env` and `openenv_env` need their extra.
"""
