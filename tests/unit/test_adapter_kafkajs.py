"""The kafkajs adapter's pure logic (its exported helpers, run by node against a stand-in ``kafkajs`` module that
has only the enums they read), and its installer's one-line refusals, with no registry asked."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kcompat.harness import ConfigError
from kcompat.harness.clients.kinds.kafkajs import install
from kcompat.harness.config import HarnessConfig

NODE = shutil.which("node")
STAND_IN = """
module.exports = {
  logLevel: { NOTHING: 0, ERROR: 1, WARN: 2, INFO: 4, DEBUG: 5 },
  AclResourceTypes: { UNKNOWN: 0, ANY: 1, TOPIC: 2, GROUP: 3, CLUSTER: 4 },
  AclOperationTypes: { ANY: 1, ALL: 2, READ: 3 },
  AclPermissionTypes: { ANY: 1, DENY: 2, ALLOW: 3 },
  ResourcePatternTypes: { ANY: 1, MATCH: 2, LITERAL: 3, PREFIXED: 4 },
  ConfigResourceTypes: { TOPIC: 2, BROKER: 4 },
}
"""


def _node(tmp_path: Path, script: str, env: dict[str, str] | None = None) -> Any:
    """What ``script`` prints (JSON) with the adapter's exports as ``adapter`` (``env`` added to its environment)."""
    if NODE is None:
        pytest.skip("node is not installed")
    stand_in = tmp_path / "node_modules" / "kafkajs"
    stand_in.mkdir(parents=True, exist_ok=True)
    (stand_in / "index.js").write_text(STAND_IN)
    program = f"const adapter = require({json.dumps(str(install.ADAPTER))});\n{script}"
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60, check=False,
                          env={"NODE_PATH": str(tmp_path / "node_modules"), "PATH": "/usr/bin:/bin", **(env or {})})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_kafkajs_errors_map_to_kafkas_code_and_name(tmp_path: Path) -> None:
    found = _node(tmp_path, """
const protocol = Object.assign(new Error('Topic with this name already exists'),
                               {name: 'KafkaJSProtocolError', code: 36, type: 'TOPIC_ALREADY_EXISTS'});
const retried = Object.assign(new Error('gave up'), {name: 'KafkaJSNumberOfRetriesExceeded', cause: protocol});
const plain = Object.assign(new Error('no broker'), {name: 'KafkaJSConnectionError'});
const renamed = {name: 'KafkaJSProtocolError', code: 15, type: 'GROUP_COORDINATOR_NOT_AVAILABLE'};
console.log(JSON.stringify([adapter.kafkaError(protocol), adapter.kafkaError(retried), adapter.kafkaError(plain),
                            adapter.kafkaError(renamed),
                            adapter.entry('t1', retried), adapter.entry('t1', null, {partitions: 2})]))
""")
    assert found[:3] == [[36, "TOPIC_ALREADY_EXISTS"], [36, "TOPIC_ALREADY_EXISTS"], [-1, "KafkaJSConnectionError"]]
    assert found[3] == [15, "COORDINATOR_NOT_AVAILABLE"]  # Kafka's name, not kafkajs's
    assert found[4] == {"resource": "t1", "error_code": 36, "error_name": "TOPIC_ALREADY_EXISTS",
                        "error_message": "gave up", "fields": {}, "exception": "KafkaJSNumberOfRetriesExceeded"}
    assert found[5]["error_name"] == "NONE" and found[5]["fields"] == {"partitions": 2}


def test_config_entries_name_kafkas_sources(tmp_path: Path) -> None:
    found = _node(tmp_path, """
const raw = {configName: 'retention.ms', configValue: '600000', readOnly: false, isDefault: false, configSource: 1,
             isSensitive: false, configSynonyms: [{configName: 'log.retention.ms', configValue: null, configSource: 5}]};
console.log(JSON.stringify([adapter.configEntry(raw, true), adapter.configEntry(raw, false)]))
""")
    assert found[0] == {"name": "retention.ms", "value": "600000", "read_only": False, "source": "DYNAMIC_TOPIC_CONFIG",
                        "is_default": False, "sensitive": False,
                        "synonyms": [{"name": "log.retention.ms", "value": None, "source": "DEFAULT_CONFIG"}]}
    assert "synonyms" not in found[1]  # not asked: kafkajs sends includeSynonyms false and gets none


def test_create_topics_args_become_kafkajs_topic_configs(tmp_path: Path) -> None:
    found = _node(tmp_path, """
console.log(JSON.stringify(adapter.topicsSpec([
  {name: 'a', partitions: 3, replication_factor: 1, assignments: null, configs: {'cleanup.policy': 'compact'}},
  {name: 'b', partitions: null, replication_factor: null, assignments: null, configs: {}},
  {name: 'c', partitions: null, replication_factor: null, assignments: {'0': [1, 2]}, configs: {}}])))
""")
    assert found == [
        {"topic": "a", "configEntries": [{"name": "cleanup.policy", "value": "compact"}], "numPartitions": 3,
         "replicationFactor": 1},
        {"topic": "b", "configEntries": [], "numPartitions": -1, "replicationFactor": -1},
        {"topic": "c", "configEntries": [], "replicaAssignment": [{"partition": 0, "replicas": [1, 2]}]}]


def test_a_request_the_adapter_cant_read_is_a_failure_answer(tmp_path: Path) -> None:
    found = _node(tmp_path, """
Promise.all([adapter.answer([], '{not json'), adapter.answer(['list_topics'], JSON.stringify({id: 4, op: 'nope'}))])
  .then(answers => console.log(JSON.stringify(answers)))
""")
    assert found[0]["id"] is None and found[0]["failure"]["class"] == "SyntaxError"
    assert found[1] == {"id": 4, "failure": {"class": "LookupError", "message": "unknown op 'nope'"}}


LIBRARY_TAKES = """
const kafkajs = require('kafkajs')
const waits = (ms, value) => new Promise((resolve, reject) => setTimeout(() => value instanceof Error ? reject(value) : resolve(value), ms))
const takes = {connect: 0, list: 0, fails: null}
kafkajs.Kafka = class { admin () {
  return {connect: () => waits(takes.connect), disconnect: () => waits(0), listTopics: () => waits(takes.list, takes.fails || ['t1'])} } }
const list = () => adapter.answer(['list_topics'], JSON.stringify({id: 1, op: 'list_topics', connection: {bootstrap: '127.0.0.1:9'}, args: {}}))
async function timed (settings) {
  Object.assign(takes, settings)
  const started = Date.now()
  const answer = (await list()).result
  await adapter.answer(['list_topics'], JSON.stringify({id: 2, op: 'close', connection: {bootstrap: '127.0.0.1:9'}}))
  return [answer, (Date.now() - started) / 1000]
}
"""


def test_the_call_deadline_is_kcompats_setting_and_a_call_reached_it_by_the_clock_or_its_error(tmp_path: Path) -> None:
    found = _node(tmp_path, """
const expired = Object.assign(new Error('x'), {name: 'TimeoutError', expired: true})
const libraries = Object.assign(new Error('Request timed out'), {name: 'KafkaJSRequestTimeoutError'})
console.log(JSON.stringify([[{KCOMPAT_ADAPTER_DEADLINE: '2.5'}, {}, {KCOMPAT_ADAPTER_DEADLINE: 'soon'},
                             {KCOMPAT_ADAPTER_DEADLINE: '0'}].map(adapter.callDeadline),
                            adapter.reached(2, 2010, libraries), adapter.reached(2, 100, expired),
                            adapter.reached(2, 1990, libraries), adapter.reached(2, 100, null)]))
""")
    assert found == [[2.5, 60, 60, 60], 2, 2, None, None]


def test_a_call_that_outlasts_its_deadline_is_answered_then_and_says_so(tmp_path: Path) -> None:
    found = _node(tmp_path, LIBRARY_TAKES + """
(async () => {
  const never = await timed({list: 60000})
  const shared = await timed({connect: 400, list: 400}) // each shorter than the deadline, together longer
  const prompt = await timed({connect: 0, list: 0})
  const early = await timed({fails: Object.assign(new Error('Request timed out'), {name: 'KafkaJSRequestTimeoutError'})})
  console.log(JSON.stringify([never, shared, prompt, early]))
  process.exit(0)
})()
""", env={"KCOMPAT_ADAPTER_DEADLINE": "0.6"})
    (never, never_took), (shared, shared_took), (prompt, _), (early, _) = found
    assert never["deadline_reached"] == 0.6 and never["exception"] == "TimeoutError", never
    assert 0.6 <= never_took < 5.0
    assert shared["deadline_reached"] == 0.6 and 0.6 <= shared_took < 5.0, shared
    assert "deadline_reached" not in prompt and prompt["resources"][0]["resource"] == "t1", prompt
    assert early["exception"] == "KafkaJSRequestTimeoutError" and "deadline_reached" not in early, early


def _config(tmp_path: Path) -> HarnessConfig:
    return HarnessConfig(cache_dir=tmp_path / "cache", run_root=tmp_path / "runs")


def test_a_missing_node_is_one_line_naming_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install.shutil, "which", lambda name: None if name == "node" else f"/usr/bin/{name}")
    with pytest.raises(ConfigError, match=r"needs Node.js 14\+ and npm on PATH \(node is missing\): install them"):
        install.install("2.2.4", _config(tmp_path))


def test_a_release_npm_lacks_is_one_line_naming_the_nearest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(install, "_npm_versions", lambda config: ["2.2.3", "2.2.4", "2.3.0-beta.3", "2.1.0"])
    monkeypatch.setattr(install, "_tools", lambda: ("/usr/bin/node", "/usr/bin/npm"))
    with pytest.raises(ConfigError, match=r"^kafkajs 2\.2\.9 is not published; nearest releases: 2\.2\.3, 2\.2\.4$"):
        install.install("2.2.9", _config(tmp_path))
    assert install.published(_config(tmp_path)) == ("2.1.0", "2.2.3", "2.2.4")  # betas left out
