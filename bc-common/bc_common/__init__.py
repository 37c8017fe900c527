"""bc_common: what the six tools and every bootcamp share. Importing the package imports nothing else; import
the module you need. The map below lists every module by area (docs/architecture.md says more, and
tests/test_architecture.py keeps both true: a module missing here fails it).

The author API (what a bootcamp imports; nothing else of bc_common):
    bootcamp            the contract in one import: base classes, manifest, reply types, message helpers
    tool                the `Tool` base class: a function the model calls, state per trajectory
    interaction         the `Interaction` base class: the environment's turn between the model's
    types               `ToolResult`, `InteractionReply`: what tools and interactions hand back
    manifest            `Bootcamp`, `Group`, `Baseline`, `Unavailable`: what a bootcamp package exports
    answer_blocks       answers in model text: `last_tagged`, `fenced_blocks`, integer lists, grids
    grids               grid puzzles written once: answer grids, the check tool, verifier, policy, baselines
    safe_eval           exact arithmetic without `eval`: `safe_eval`, `parse_number`, `format_number`
    images              images of visual tasks: image parts, PNG, files by hash, size limits
    drawing             text on task pictures, the same pixels on every machine
    seeding             per-record random streams (`RecordRandom`), keyed by every coordinate of a row
    hashseed            work whose result follows Python's string hash seed, done under PYTHONHASHSEED=0
    stamps              which code made a row: `code_stamp` (version, folder hash; a key for what a bootcamp caches), `StampMix`
    config              typed configs from YAML and `--set`: unknown keys and wrong types are errors
    errors              the typed errors and their exit codes
    sandbox             model-written code in bubblewrap: `sandbox_for`, `Limits`, `RunResult` (docs/sandbox.md)
    code_tools          tools that run the model's code in the sandbox: `run_python`, `run_tests`, `shell`, `sql`
    function_runner     a model-written function called on test inputs inside the sandbox, graded outside it
    sql_runner          read-only SQL on a task's SQLite database in the sandbox; result sets compared outside
    sandboxed_reward    a verifier that runs model code: its sandbox and the record each row keeps of it
    rubric              rewards as weighted components (verifier, code checks, an LLM judge), each recorded
    seats               `SeatedGame`, `SeatOutcome`: a game for two or more seated models, each seat its own view
    answer_balance      items kept so no answer stands out: labels take turns by row index, frequent ones flattened

Records and I/O (from the top down: `readers` picks a reader by suffix; the others build on `jsonl`):
    records             task and trajectory rows: checks, identity, id
    readers             records of any input (JSONL, .json, .parquet, stdin): `read_records`
    jsonl               JSONL lines in and out: `JsonlWriter`, `AtomicFile`, `loads`, `dumps`, `Record`
    parquet_io          parquet that reads back equal to its JSONL
    verl_rows           task rows as verl's RLHFDataset reads them, and back
    paths               an output may not be one of the inputs, nor two outputs one file
    locks               one writer per output: an advisory lock held for the run
    redaction           secrets kept out of records, logs and URLs

The catalog and the seed's formats:
    catalog             installed bootcamps by folder and entry point: `get_bootcamp`, `available`
    extension_points    every way to extend the harness, named in one place
    classes             classes named by dotted path, checked before any import: `load_class`
    extras              optional dependencies: `missing_modules` and the install command that works here
    registry            the seed's `bootcamp_registry.jsonl`
    instruction_config  the seed's instruction config (groups, global_config)
    tool_config         the seed's tool and interaction YAML, and the specs of a manifest's classes
    describe            what `bc-gen --list` / `--describe` say, and the seed-format YAML of a bootcamp

The runtime (tasks, rollout, models, tools):
    tasks               task *i* of (bootcamp, group, config, split, seed): `TaskSet`, `TaskFactory`
    environment         a task's bootcamp resolved to its verifier, tools, interaction and policy
    identity            a task's ground truth checked against what its verifier declares
    verify_kwargs       the seed's `verify_score` keyword arguments, checked up front
    rollout             one trajectory, turn by turn: `run_trajectory`, `Limits`
    model               the model protocol of the rollout loop: `Model`, `ModelRequest`, `ModelReply`
    pricing             what tokens cost: `--price IN,OUT` and a small table of hosted models' list prices
    builtin_model       `builtin:reference`, `builtin:noisy`, `builtin:baseline/NAME`
    match               one match of a `SeatedGame` between two models: `run_match`, `Player`
    ratings             matches rated (Bradley-Terry on the Elo scale, bootstrap intervals): `MatchTally`, `rate`
    tool_runtime        in-process tools per trajectory: `ToolRuntime`, `ToolSession`
    remote_tool         `RemoteTool`: a `Tool` whose instances live on a bc-toolserve server
    conformance         the conformance suite every bootcamp passes (`python -m bc_common.conformance NAME`)
    reclassify          adapters' reclassification: the suite per adapted bootcamp, withheld.py's generated tables
    interop             our bootcamps in other trainers' environment APIs: verifiers, OpenEnv (optional extras)

The commands' shared plumbing:
    cli                 one error path and the exit codes of every command
    fdlimit             the soft open-file limit raised to the hard one, first thing in every command
    cli_options         the flags every tool shares, defined once; numbers checked at parse time
    loopback            an ASGI app served on 127.0.0.1 in a background thread: `serve_in_thread`, `listen`
    http1               pooled keep-alive HTTP/1.1 on httptools: bc-eval's chat calls, bc-toolserve's forwarding
    workers             worker process pools that die with their parent and leave Ctrl-C to it: `fork_pool`, `stop`
"""
