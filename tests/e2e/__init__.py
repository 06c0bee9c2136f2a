"""Real agent CLIs end to end (``make e2e``): Codex and Claude Code finish tool loops on loopback.

Harness, for any server that speaks the client's format (the emulator directly, or a gateway in
front of an emulator speaking another format)::

    from tests.e2e._clients import check_ok, run_claude, run_codex
    from tests.e2e._egress import sinkhole
    from tests.e2e._emulator import scripted_emulator
    from tests.e2e._scenarios import check_outcome, claude_write_bash, codex_patch_shell

    scenario = codex_patch_shell(upstream="anthropic")  # tool calls as the upstream sees them
    with scripted_emulator(scenario.turns) as up, sinkhole() as hole:
        base_url = up.url  # or the gateway's root URL, fronting up.url
        run = run_codex(base_url, "responses", workdir, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run)                   # exit 0, nothing proxied, no connection outside loopback
    check_outcome(run, scenario)    # the file is written, the final answer quotes the tool output
    up.recorder.requests            # what reached the emulator (method, path, headers, body, status)

Tests: ``test_codex``/``test_claude`` (the emulator directly, recording the corpus),
``test_gateway`` (through the gateway app to each other format), ``test_egress`` (the guard).

Modules: ``_clients`` (run the CLIs), ``_egress`` (proxy sinkhole and strace audit), ``_emulator``
(scripted recording upstream), ``_capture`` (the recording ASGI middleware), ``_scenarios`` (the
loops as data), ``_corpus`` (``tests/data/real_clients``, written by ``make e2e-record``).
"""
