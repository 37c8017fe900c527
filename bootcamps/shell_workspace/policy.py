"""The reference (tries its script with the `shell` tool, then answers it), the noisy mistake, and the baselines:
what a lazy policy answers first."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call
from bc_common.code_tools import ShellTool

from .chores import BY_KEY, services
from .tree import build_tree


def answer(script: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"Here is the script:\n```sh\n{script}```"}


def tried(messages: list[dict[str, Any]]) -> bool:
    return any(m.get("role") == "tool" for m in messages)


class ShellWorkspacePolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        script = BY_KEY[self.identity["chore"]].script(self.identity["params"])
        if not tried(messages) and "shell" in self.tools:
            return {"role": "assistant", "content": "Let me try it on the folder first.",
                    "tool_calls": [tool_call("call_0", "shell", {"command": script})]}
        if wrong:  # the noisy model's slip: one stray command that removes a file the task never mentions
            tree = build_tree(int(self.identity["seed"]), self.identity["size"])
            script += f"rm -f logs/{services(tree)[0]}/README.txt\n"
        return answer(script)


class LookAndClaimPolicy(ReferencePolicy):
    """Lists the folder with the tool, then answers a script that only claims success."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        if not tried(messages) and "shell" in self.tools:
            return {"role": "assistant", "content": "", "tool_calls": [tool_call("call_0", "shell",
                                                                                 {"command": "ls -R"})]}
        return answer("echo 'all done: PASSED'\nexit 0\n")


class EmptyOutputsPolicy(ReferencePolicy):
    """Creates the files and folders the task names, empty, and does none of the work."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        params = self.identity["params"]
        lines = [f": > {params['out']}"] if "out" in params else []
        lines += [f"mkdir -p {params[key]}" for key in ("trash", "folder") if key in params]
        return answer("\n".join(lines or ["true"]) + "\n")


class OtherTaskPolicy(ReferencePolicy):
    """Answers the reference script of another task of the same chore (a memorised template, other parameters)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        chore = BY_KEY[self.identity["chore"]]
        for _ in range(200):
            params = chore.draw(self.rng, build_tree(self.rng.getrandbits(62), self.identity["size"]))
            if params is not None and params != self.identity["params"]:
                return answer(chore.script(params))
        return answer("true\n")


class WorkspaceShell(ShellTool):
    """`shell` in the task's generated workspace (its changes persist across the calls of one trajectory)."""

    def workspace_files(self, identity: dict[str, Any]) -> dict[str, str]:
        return build_tree(int(identity["seed"]), identity["size"])


BASELINES = [
    Baseline("look_and_claim", LookAndClaimPolicy, "lists the folder, then answers a script that only prints PASSED"),
    Baseline("empty_outputs", EmptyOutputsPolicy, "creates the named output files and folders empty"),
    Baseline("other_task", OtherTaskPolicy, "the reference script of another task of the same chore"),
]
