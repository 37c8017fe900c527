import asyncio

from bc_common.bootcamp import Tool
from bc_common.registry import get_bootcamp
from bc_common.tool_runtime import ToolRuntime

IDENTITY = {"expression": "1 + 1", "expected_result": "2", "tolerance": "1e-6"}


class CountingTool(Tool):
    released: list[str] = []

    async def execute(self, instance_id, parameters, **kwargs):
        state = self.state(instance_id)
        state["calls"] += 1
        if parameters.get("explode"):
            raise RuntimeError("kaput")
        return f"call {state['calls']} for {state['identity']['who']}", 0.0, {}

    async def release(self, instance_id, **kwargs):
        CountingTool.released.append(instance_id)
        await super().release(instance_id)


SCHEMA = {"type": "function", "function": {"name": "count", "description": "count calls", "parameters": {
    "type": "object", "properties": {"explode": {"type": "boolean"}}, "additionalProperties": False}}}


def test_state_survives_calls_and_is_released():
    async def main():
        runtime = ToolRuntime({"count": CountingTool({}, SCHEMA)})
        session = runtime.session({"count": {"identity": {"who": "ana"}}})
        assert (await session.call("count", "{}")).text == "call 1 for ana"
        assert (await session.call("count", {})).text == "call 2 for ana"
        other = runtime.session({"count": {"identity": {"who": "bo"}}})
        assert (await other.call("count", None)).text == "call 1 for bo"
        boom = await session.call("count", '{"explode": true}')
        assert boom.error["type"] == "tool_exception" and "kaput" in boom.text
        await session.close()
        await other.close()
        assert len(CountingTool.released) == 2
        assert runtime.tools["count"]._instances == {}

    asyncio.run(main())


def test_bad_calls_become_error_texts():
    async def main():
        runtime = ToolRuntime.from_config(get_bootcamp("arithmetic").tool_config)
        session = runtime.session({"calculate": {"identity": IDENTITY}}, allowed=["calculate"])
        ok = await session.call("calculate", '{"expression": "12 × 3 ÷ 8"}')
        assert ok.ok and ok.text == "4.5" and ok.reward == 0.0
        cases = {
            "unknown_tool": ("rm_rf", "{}"),
            "invalid_arguments": ("calculate", '{"expression": '),
        }
        for kind, (name, args) in cases.items():
            res = await session.call(name, args)
            assert res.error["type"] == kind and res.text.startswith("Error")
        assert (await session.call("calculate", {"expr": "1"})).error["type"] == "invalid_arguments"
        assert (await session.call("calculate", {"expression": 5})).error["type"] == "invalid_arguments"
        assert (await session.call("calculate", "[1]")).error["type"] == "invalid_arguments"
        zero = await session.call("calculate", {"expression": "1 ÷ (2 - 2)"})
        assert zero.error["type"] == "division_by_zero" and "division by zero" in zero.text
        hostile = await session.call("calculate", {"expression": "__import__('os').system('id')"})
        assert hostile.error["type"] == "invalid_expression"
        await session.close()

    asyncio.run(main())


def test_only_allowed_tools_are_offered():
    runtime = ToolRuntime.from_config(get_bootcamp("arithmetic").tool_config)
    session = runtime.session({}, allowed=[])
    assert session.schemas == []
    res = asyncio.run(session.call("calculate", {"expression": "1"}))
    assert res.error["type"] == "unknown_tool"
