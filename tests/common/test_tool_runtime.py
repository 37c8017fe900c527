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
        runtime = ToolRuntime.from_specs(get_bootcamp("arithmetic").tool_specs())
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
    runtime = ToolRuntime.from_specs(get_bootcamp("arithmetic").tool_specs())
    session = runtime.session({}, allowed=[])
    assert session.schemas == []
    res = asyncio.run(session.call("calculate", {"expression": "1"}))
    assert res.error["type"] == "unknown_tool"


# The fast acceptor must never accept what jsonschema rejects, must accept the common valid calls, and the
# runtime's answer (None or the message) must be jsonschema's on every input.
TRICKY_SCHEMAS = [
    {"type": "object", "properties": {"expression": {"type": "string", "description": "e.g. 1 + 2"}},
     "required": ["expression"]},
    {"type": "object", "properties": {"n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
                                      "z": {"type": "null"}, "o": {"type": "object"}, "a": {"type": "array"},
                                      "any": True},
     "required": ["n"], "additionalProperties": False, "title": "t"},
    {"type": "object", "properties": {"ghost": {"type": "string"}}, "required": ["ghost", "other"],
     "additionalProperties": False},
    {"type": "object", "properties": {}, "additionalProperties": False},
    {"type": "object"},
]
TRICKY_ARGUMENTS = [
    {}, {"expression": "1 + 1"}, {"expression": 3}, {"expression": None}, {"expression": True},
    {"expression": "x", "extra": 1}, {"n": 1}, {"n": True}, {"n": 1.0}, {"n": 1.5}, {"n": "1"}, {"n": 2**70},
    {"n": 1, "x": 1}, {"n": 1, "x": 1.5}, {"n": 1, "x": False}, {"n": 1, "x": float("nan")}, {"n": 1, "b": 0},
    {"n": 1, "b": False}, {"n": 1, "z": None}, {"n": 1, "z": 0}, {"n": 1, "o": {}}, {"n": 1, "o": []},
    {"n": 1, "a": []}, {"n": 1, "a": ()}, {"n": 1, "a": {}}, {"n": 1, "any": object()}, {"n": 1, "more": 1},
    {"ghost": "a"}, {"ghost": "a", "other": 1}, {"other": 1}, {"ghost": 1, "other": 1},
    {"expression": type("S", (str,), {})("sub")}, {"n": type("I", (int,), {})(3)},
]


def test_simple_acceptor_matches_jsonschema_on_tricky_inputs():
    from jsonschema import Draft202012Validator

    from bc_common.tool_runtime import simple_acceptor

    for schema in TRICKY_SCHEMAS:
        accepts = simple_acceptor(schema)
        assert accepts is not None, schema
        tool = CountingTool({}, {"type": "function", "function": {"name": "t", "parameters": schema}})
        runtime = ToolRuntime({"t": tool})
        slow = Draft202012Validator(schema)
        for args in TRICKY_ARGUMENTS:
            valid = slow.is_valid(args)
            if accepts(args):
                assert valid, (schema, args)
            first = next(iter(slow.iter_errors(args)), None)
            expected = None if first is None else (
                ("/".join(map(str, first.absolute_path)) + ": " if first.absolute_path else "") + first.message)
            assert runtime.validate("t", args) == expected, (schema, args)
    # the common call takes the fast path
    assert simple_acceptor(TRICKY_SCHEMAS[0])({"expression": "1 + 1"}) is True


def test_simple_acceptor_declines_other_schemas():
    from bc_common.tool_runtime import simple_acceptor

    for schema in [{"type": "object", "properties": {"s": {"type": "string", "minLength": 2}}},
                   {"type": "object", "properties": {"s": {"enum": [1, 2]}}},
                   {"type": "object", "properties": {"s": {"type": ["string", "null"]}}},
                   {"type": "object", "additionalProperties": {"type": "string"}},
                   {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
                   {"type": "object", "required": "expression"},
                   {"type": "object", "properties": {"s": {"type": "strin"}}},
                   {"type": "object", "properties": {"s": False}},
                   {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"},
                   {"type": "array"}, {"properties": {}}, True, None]:
        assert simple_acceptor(schema) is None, schema


class SlowCreateTool(CountingTool):
    """Creates take a while (a remote worker's create, say)."""

    async def create(self, instance_id=None, identity=None, **kwargs):
        await asyncio.sleep(0.2)
        return await super().create(instance_id, identity, **kwargs)


def test_a_create_cut_short_by_its_caller_is_still_released_at_close():
    """A call cancelled while its instance is being created (its session ended): the create completes anyway
    and `close` releases that instance, instead of leaving it to the tool's TTL."""
    async def main():
        tool = SlowCreateTool({}, SCHEMA)
        session = ToolRuntime({"count": tool}).session({"count": {"identity": {"who": "ana"}}})
        call = asyncio.ensure_future(session.call("count", {}))
        await asyncio.sleep(0.05)
        call.cancel()
        await asyncio.gather(call, return_exceptions=True)
        await session.close()
        late = await session.call("count", {})
        return dict(tool._instances), late

    CountingTool.released = []
    live, late = asyncio.run(main())
    assert live == {} and len(CountingTool.released) == 1
    assert late.error["type"] == "session_closed"


def test_a_session_closed_while_a_create_runs_releases_what_it_made():
    async def main():
        tool = SlowCreateTool({}, SCHEMA)
        session = ToolRuntime({"count": tool}).session({"count": {"identity": {"who": "bo"}}})
        call = asyncio.ensure_future(session.call("count", {}))
        await asyncio.sleep(0.05)
        await session.close()
        return await call, dict(tool._instances)

    CountingTool.released = []
    result, live = asyncio.run(main())
    assert result.error["type"] == "session_closed" and live == {} and len(CountingTool.released) == 1
