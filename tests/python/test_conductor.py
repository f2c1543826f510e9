"""The Conductor from Python: prompt, commands, checks, warnings, the round
loop with Python oracles, the cache, the pipeline's inserted stages, SHA-256,
and the OpenAI-compatible oracle against a mock server on 127.0.0.1."""

import http.server
import json
import threading

import pytest

import waveasm
from waveasm.conductor import Conductor, OpenAIOracle, sha256, sha256_hex

# The load is issued after the arithmetic: moving it up is better.
LATE_LOAD = """\
.kernel sched
  .target gfx942
  s_load_dwordx4 %s1<4,align=4>, s[0:1], 0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 %v2, 0
  v_mov_b32 %v4, 1
  v_mov_b32 %v5, 2
  v_mov_b32 %v6, 3
  v_add_u32 %v7, %v4, %v5
  v_add_u32 %v8, %v7, %v6
  buffer_load_dword %v3, %v2, %s1, 0 offen
  v_add_u32 %v9, %v3, %v8
  buffer_store_dword %v9, %v2, %s1, 0 offen offset:64
  s_endpgm
.end_kernel
"""


@pytest.fixture
def prog(ctx):
    return ctx.parse(LATE_LOAD)


def order(program):
    return [line.split("; @")[1].split()[0] for line in program.text().splitlines()
            if "; @I" in line]


def test_prompt_regions_and_metrics(prog):
    c = Conductor(prog)
    [region] = c.regions()
    assert region.instrs == 12 and region.movable == 10 and region.loop_depth == 0
    m = c.measure()
    assert m.cycles > 0 and m.waves_per_simd == 8 and m.peak_vgprs >= 4
    assert c.region_cycles(0) == m.cycles
    text = c.prompt(m)
    assert "; commands: move Ix after Iy" in text
    assert f"est_cycles={m.cycles}" in text
    assert "s_waitcnt lgkmcnt(0) ; @I1 [pinned]" in text
    assert not c.better(m, m)


def test_profile(prog):
    c = Conductor(prog)
    c.set_profile("tag,hits,lat_mean\nI8,64,310\n")
    assert ";   I8 buffer_load_dword hits=64 lat_min=0 lat_mean=310 lat_max=0" in c.prompt()
    with pytest.raises(waveasm.ParseError):
        c.set_profile("tag,hits\nI8,many\n")
    c.set_profile("")
    assert "; profile" not in c.prompt()


def test_apply_checks_and_reverts(prog):
    c = Conductor(prog)
    before = prog.text()
    rnd = c.apply("move I8 after I2\nmove I9 before I8\n")
    assert rnd.failed == 1 and rnd.applied == 1 and rnd.error is not None
    assert "I9 reads %v3 defined by I8" in rnd.report
    assert prog.text() == before
    with pytest.raises(waveasm.ParseError) as e:
        c.apply("move I8 sideways I2")
    assert e.value.diagnostics[0].line == 1 and e.value.diagnostics[0].col == 9
    rnd = c.apply("move I8 after I2\ndone\n")
    assert rnd.failed is None and rnd.done and rnd.applied == 1
    assert order(prog)[:4] == ["I0", "I1", "I2", "I8"]


def test_warnings(ctx):
    p = ctx.parse(LATE_LOAD.replace("  s_endpgm", "  s_barrier\n  v_mov_b32 %v10, 5\n  s_endpgm"))
    c = Conductor(p)
    rnd = c.apply("move I12 before I11")
    assert [(w.severity, w.command) for w in rnd.warnings] == [("warn", 0)]
    assert "moved past the barrier I11" in rnd.warnings[0].message


def test_round_loop_with_python_oracles(prog):
    c = Conductor(prog)
    answers = iter(["move I3 after I6", "move I8 after I2", None])
    seen = []
    res = c.run(lambda prompt: next(answers), rounds=5,
                progress=lambda n, cmds, m, kept: seen.append((n, cmds, kept)))
    assert res.rounds == 2 and res.kept == 1 and res.regressed == 0 and res.failed == 1
    assert res.best.cycles < res.baseline.cycles
    assert seen == [(1, 1, False), (2, 1, True)]
    assert order(prog)[3] == "I8"

    def broken(prompt):
        raise KeyError("oracle bug")
    with pytest.raises(KeyError):
        Conductor(prog).run(broken)


def test_heuristic_and_cache(prog, tmp_path):
    c = Conductor(prog)
    assert c.heuristic().endswith("done\n")
    res = c.run(lambda prompt: c.heuristic(), rounds=2, cache=True, cache_dir=str(tmp_path))
    assert res.kept == 1 and not res.cache_hit
    assert len(list(tmp_path.glob("*.json"))) == 1
    again = prog.context.parse(LATE_LOAD)
    res2 = Conductor(again).run(lambda prompt: pytest.fail("the oracle is not asked"),
                                cache=True, cache_dir=str(tmp_path))
    assert res2.cache_hit and res2.best.cycles == res.best.cycles
    assert again.text() == prog.text()
    third = prog.context.parse(LATE_LOAD)
    assert Conductor(third).run_heuristic().kept == 1


def test_pipeline_insert_and_schedule_stage(ctx):
    seen = []
    pl = waveasm.Pipeline(ctx, schedule=True)
    pl.disable("cse")
    pl.disable("peephole")
    pl.insert("regalloc", lambda p: seen.append(p.vreg_count) or {"changed": 2})
    pl.insert("cse", "schedule", after=False, name="early-schedule")
    p = ctx.parse(LATE_LOAD)
    pl.run(p)
    names = [n for n, _ in pl.inserted_stats()]
    assert names == ["schedule", "<lambda>", "early-schedule"]
    stats = dict(pl.inserted_stats())
    assert stats["early-schedule"].pass_stats.changed > 0
    assert stats["<lambda>"].pass_stats.changed == 2
    assert seen == [0]


def test_beam(ctx):
    def oracle(prompt, agent, seed):
        return ["move I2 after I7", "move I8 after I2"][agent % 2]
    texts = []
    for _ in range(2):
        p = ctx.parse(LATE_LOAD)
        res = Conductor(p).beam(oracle, agents=3, interval=1, keep=1, checkpoints=2, seed=5)
        texts.append(p.text())
        assert res.rounds == 6 and res.best.cycles < res.baseline.cycles
    assert texts[0] == texts[1] and order(p)[3] == "I8"


def test_sha256():
    assert sha256_hex("abc") == \
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert sha256(b"") == bytes.fromhex(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")


class _MockChat(http.server.BaseHTTPRequestHandler):
    requests = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append((self.path, self.headers.get("Authorization"), body))
        prompt = body["messages"][-1]["content"]
        # answer like a model would: the load named in the prompt goes up
        tag = [line.split("; @")[1].split()[0] for line in prompt.splitlines()
               if "buffer_load_dword" in line][0]
        answer = {"choices": [{"message": {"role": "assistant",
                                           "content": f"```\nmove {tag} after I2\ndone\n```"}}]}
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_openai_oracle_against_a_mock_server(prog):
    server = http.server.HTTPServer(("127.0.0.1", 0), _MockChat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        _MockChat.requests.clear()
        oracle = OpenAIOracle(f"http://127.0.0.1:{server.server_port}/v1", "test-model",
                              api_key="k", max_calls=3)
        res = Conductor(prog).run(oracle, rounds=4)
    finally:
        server.shutdown()
        server.server_close()
    assert res.kept == 1 and res.rounds == 1
    path, auth, body = _MockChat.requests[0]
    assert path == "/v1/chat/completions" and auth == "Bearer k"
    assert body["model"] == "test-model" and body["messages"][0]["role"] == "system"
    assert "; schedule of kernel sched" in body["messages"][1]["content"]
    assert order(prog)[3] == "I8"
