"""Set for every test process and what it starts."""
import os

# Ray (2.60) turns token auth on for any cluster it starts or joins when ~/.ray/auth_token exists and RAY_AUTH_MODE
# is unset; NeMo Gym's `gym env start` (make test-interop) writes that file. The tests' Ray clusters live on
# loopback and must not depend on what an earlier run left in the home directory: one mode for all of them.
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
