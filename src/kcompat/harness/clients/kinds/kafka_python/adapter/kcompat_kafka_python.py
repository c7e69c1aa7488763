"""kcompat's adapter for kafka-python's KafkaAdminClient (3.x), speaking the JSON-lines adapter protocol, version 3.

Run by the Python of a venv that holds one kafka-python release and nothing of kcompat: this file imports
only the standard library and ``kafka``.  stdin/stdout carry protocol lines only; the library's logging and
ours go to stderr.  Each op's ``args`` and result ``fields`` are those of the Java sidecar's class of the
same name (``harness/clients/sidecar/kcompat/sidecar/ops/``).

kafka-python chooses every request version itself from the broker's ApiVersions: the version it sent is read
from its own debug log line ("Request <id>: <request>"), whose request object carries API_KEY and
API_VERSION.  A Kafka error is data: its code, and the name kafka-python's error class carries (``message``,
Kafka's own name, e.g. TOPIC_ALREADY_EXISTS).

A client reference's ``api_version`` setting (the connection's ``settings``) is KafkaAdminClient's own
``api_version``, a tuple of ints, as a user pins it: what the release makes of it is the observation (3.x takes
the versions of its table for that release, lowered where the broker's ApiVersions says less).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

PROTOCOL = 3
DEADLINE_VARIABLE = "KCOMPAT_ADAPTER_DEADLINE"
DEFAULT_DEADLINE = 60.0
"""Seconds one library call may take where kcompat names none; kcompat's own wait for an answer is longer."""
REQUEST_TIMEOUT_MS = 30000


def call_deadline(environ: Mapping[str, str]) -> float:
    """Seconds one call (its client's making included) may take: kcompat's ``KCOMPAT_ADAPTER_DEADLINE``."""
    try:
        seconds = float(environ.get(DEADLINE_VARIABLE, ""))
    except ValueError:
        return DEFAULT_DEADLINE
    return seconds if seconds > 0 else DEFAULT_DEADLINE


class DeadlineExpired(TimeoutError):
    """The call's deadline expired before kafka-python finished it (its thread is left to the library)."""

METHODS = {
    "create_topics": "create_topics", "create_partitions": "create_partitions",
    "describe_configs": "describe_configs", "list_topics": "list_topics", "create_acls": "create_acls",
    "describe_topics": "describe_topics", "delete_topics": "delete_topics", "describe_cluster": "describe_cluster",
    "alter_configs": "alter_configs", "incremental_alter_configs": "alter_configs",
    "describe_acls": "describe_acls", "delete_acls": "delete_acls", "list_consumer_groups": "list_groups",
    "describe_consumer_groups": "describe_groups", "delete_consumer_groups": "delete_groups",
    "list_consumer_group_offsets": "list_group_offsets", "alter_consumer_group_offsets": "alter_group_offsets",
    "delete_records": "delete_records", "list_offsets": "list_partition_offsets", "elect_leaders": "elect_leaders",
    "alter_partition_reassignments": "alter_partition_reassignments",
    "list_partition_reassignments": "list_partition_reassignments", "describe_log_dirs": "describe_log_dirs",
    "delete_consumer_group_offsets": "delete_group_offsets", "describe_features": "describe_features",
    "list_config_resources": "list_config_resources", "describe_metadata_quorum": "describe_metadata_quorum",
}
"""Each op and the KafkaAdminClient method it drives: an op is declared only where the release has it."""


KAFKA_NAMES = {6: "NOT_LEADER_OR_FOLLOWER", 10: "MESSAGE_TOO_LARGE", 17: "INVALID_TOPIC_EXCEPTION",
               39: "INVALID_REPLICA_ASSIGNMENT"}
"""Kafka's name (``Errors``) for the codes whose kafka-python class carries another (INVALID_REPLICATION_ASSIGNMENT
for 39): claims compare Kafka's names.  The adapter's integration test checks every code against kcompat's."""

# -- pure helpers (no kafka import: unit-tested in kcompat's own Python) --------------------------------------


def kafka_name(error_class: type | None) -> tuple[int, str]:
    """(code, Kafka's name) of a kafka-python error class: ``errno`` and ``message`` (TOPIC_ALREADY_EXISTS), or
    ``KAFKA_NAMES``'s where they differ; a client-side error without an errno is code -1 under its class name."""
    if error_class is None:
        return 0, "NONE"
    code = getattr(error_class, "errno", None)
    message = getattr(error_class, "message", None)
    if isinstance(code, int) and code >= 0 and isinstance(message, str) and message:
        return code, "NONE" if code == 0 else KAFKA_NAMES.get(code, message)
    return -1, error_class.__name__


def entry(resource: str, error: type | BaseException | None = None, message: str | None = None,
          fields: dict[str, Any] | None = None, code: int | None = None) -> dict[str, Any]:
    """One resource of a result: its error (a kafka-python error class or instance, or a Kafka code)."""
    if code is not None and error is None:
        error_class = None if code == 0 else _for_code(code)
        number, name = (code, "NONE") if code == 0 else (code, kafka_name(error_class)[1])
        exception = None if code == 0 else error_class.__name__ if error_class is not None else None
    else:
        error_class = error if isinstance(error, type) or error is None else type(error)
        number, name = kafka_name(error_class)
        exception = None if error_class is None or number == 0 else error_class.__name__
        if message is None and isinstance(error, BaseException):
            message = str(error)
    return {"resource": resource, "error_code": number, "error_name": name,
            "error_message": message if number != 0 else None, "fields": fields or {}, "exception": exception}


def config_entry(name: str, raw: dict[str, Any]) -> dict[str, Any]:
    """A config entry in the sidecar's shape (``Json.configEntry``) from kafka-python's processed dict."""
    source = raw.get("config_source")
    out: dict[str, Any] = {"name": name, "value": raw.get("value"), "read_only": bool(raw.get("read_only")),
                           "source": source,
                           "is_default": bool(raw["is_default"]) if "is_default" in raw
                           else source == "DEFAULT_CONFIG",
                           "sensitive": bool(raw.get("is_sensitive"))}
    if "synonyms" in raw:
        out["synonyms"] = [{"name": s.get("name"), "value": s.get("value"), "source": s.get("source")}
                           for s in raw["synonyms"]]
    if "config_type" in raw:
        out["type"] = raw["config_type"]
    if "documentation" in raw:
        out["documentation"] = raw["documentation"]
    return out


def acl_label(resource_type: str, name: str | None, principal: str | None, operation: str, permission: str) -> str:
    """A binding or filter as kcompat labels it: ``topic:t:User:alice:READ:ALLOW`` (None: ``*``)."""
    return f"{resource_type.lower()}:{name or '*'}:{principal or '*'}:{operation.upper()}:{permission.upper()}"


def topics_spec(topics: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """create_topics' args as kafka-python 3's dict form: -1 asks the broker's default (KIP-464)."""
    spec: dict[str, dict[str, Any]] = {}
    for topic in topics:
        item: dict[str, Any] = {"configs": dict(topic.get("configs") or {})}
        if topic.get("assignments") is not None:
            item["assignments"] = {int(p): list(ids) for p, ids in topic["assignments"].items()}
        else:
            item["num_partitions"] = -1 if topic.get("partitions") is None else topic["partitions"]
            item["replication_factor"] = (-1 if topic.get("replication_factor") is None
                                          else topic["replication_factor"])
        spec[topic["name"]] = item
    return spec


def partitions_spec(partitions: list[dict[str, Any]]) -> dict[str, Any]:
    """create_partitions' args as kafka-python 3's dict form: a count, or a count with new assignments."""
    return {p["topic"]: p["total_count"] if p.get("assignments") is None
            else {"count": p["total_count"], "assignments": [list(ids) for ids in p["assignments"]]}
            for p in partitions}


def plain(value: Any) -> Any:
    """A response object as plain data (``to_dict`` where it has one)."""
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def _for_code(code: int) -> type | None:
    try:
        import kafka.errors as errors
    except ImportError:
        return None
    found: type = errors.for_code(code)
    return found


# -- the protocol -------------------------------------------------------------------------------------------


class SentRequests(logging.Handler):
    """(api key, version) of every request kafka-python logs as sent; nothing else of the record is kept."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sent: list[tuple[int, int]] = []
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        for arg in record.args if isinstance(record.args, tuple) else ():
            key, version = getattr(arg, "API_KEY", None), getattr(arg, "API_VERSION", None)
            if isinstance(key, int) and isinstance(version, int) and "Request" in str(record.msg):
                with self._lock:
                    self.sent.append((key, version))

    def mark(self) -> int:
        with self._lock:
            return len(self.sent)

    def version_since(self, mark: int, api_keys: list[int]) -> int | None:
        """The last version of any of ``api_keys`` (the request's: the APIs its op sends) sent since ``mark``."""
        with self._lock:
            found = [v for k, v in self.sent[mark:] if k in api_keys]
        return found[-1] if found else None


class Call:
    """The result of one op, in the protocol's shape."""

    def __init__(self) -> None:
        self.resources: list[dict[str, Any]] = []
        self.result_fields: list[str] = []
        self.unsupported: list[str] = []
        self.exception: str | None = None
        self.exception_message: str | None = None
        self.deadline_reached: float | None = None
        """The deadline's seconds where the call returned only when it expired."""

    def threw(self, exc: BaseException) -> None:
        self.exception = type(exc).__name__
        self.exception_message = str(exc).replace("\n", " ")

    def answer(self, request_version: int | None) -> dict[str, Any]:
        answer = {"request_version": request_version, "resources": self.resources,
                  "result_fields": self.result_fields, "exception": self.exception,
                  "exception_message": self.exception_message, "unsupported_options": self.unsupported}
        return answer if self.deadline_reached is None else {**answer, "deadline_reached": self.deadline_reached}


def client_key(connection: dict[str, Any]) -> tuple[str, str | None, str | None, str]:
    """One client per (bootstrap, user, password, settings and surface): one configuration, one client."""
    rest = {k: connection.get(k) for k in ("settings", "surface")}
    return (connection["bootstrap"], connection.get("username"), connection.get("password"),
            json.dumps(rest, sort_keys=True))


def library_settings(connection: dict[str, Any]) -> dict[str, Any]:
    """The KafkaAdminClient options the connection's settings name (none: the library's defaults)."""
    settings = connection.get("settings") or {}
    if "api_version" not in settings:
        return {}
    text = str(settings["api_version"])
    if not all(part.isascii() and part.isdigit() for part in text.split(".")):
        raise ValueError(f"api_version={text} is not a release kafka-python can take as a tuple of ints")
    return {"api_version": tuple(int(part) for part in text.split("."))}


class Adapter:
    """One KafkaAdminClient per connection and configuration, kept between calls."""

    def __init__(self, deadline: float = DEFAULT_DEADLINE) -> None:
        import kafka

        self.kafka = kafka
        self.deadline = deadline
        self.version = str(kafka.__version__)
        self.clients: dict[tuple[str, str | None, str | None, str], Any] = {}
        self.log = SentRequests()
        library = logging.getLogger("kafka")
        library.setLevel(logging.DEBUG)
        library.propagate = False
        library.addHandler(self.log)
        stderr = logging.StreamHandler(sys.stderr)
        stderr.setLevel(logging.INFO)  # the debug lines carry request bodies and the configuration
        library.addHandler(stderr)
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kcompat-call")

    def operations(self) -> list[str]:
        admin = self.kafka.KafkaAdminClient
        return sorted(op for op, method in METHODS.items() if op in OPS and callable(getattr(admin, method, None)))

    def client(self, connection: dict[str, Any], until: float) -> Any:
        key = client_key(connection)
        if key not in self.clients:
            conf: dict[str, Any] = {"bootstrap_servers": key[0], "client_id": "kcompat-kafka-python",
                                    "request_timeout_ms": REQUEST_TIMEOUT_MS, "bootstrap_timeout_ms": 30000,
                                    **library_settings(connection)}
            if key[1] is not None:
                conf.update(security_protocol="SASL_PLAINTEXT", sasl_mechanism="PLAIN",
                            sasl_plain_username=key[1], sasl_plain_password=key[2] or "")
            known = getattr(self.kafka.KafkaAdminClient, "DEFAULT_CONFIG", conf)
            self.clients[key] = self._bounded(lambda: self.kafka.KafkaAdminClient(
                **{k: v for k, v in conf.items() if k in known}), "connecting", until)
        return self.clients[key]

    def close(self, connection: dict[str, Any] | None) -> None:
        keys = list(self.clients) if connection is None else [client_key(connection)]
        for key in keys:
            client = self.clients.pop(key, None)
            if client is not None:
                try:
                    self._bounded(client.close, "closing", time.monotonic() + self.deadline)
                except Exception as exc:  # a client that won't close is left behind, said on stderr
                    print(f"kcompat adapter: closing a client: {type(exc).__name__}: {exc}", file=sys.stderr)

    def _bounded(self, work: Callable[[], Any], what: str, until: float) -> Any:
        """``work()`` in a worker thread, given up at ``until`` (``time.monotonic()``; its thread is left to the
        library)."""
        future = self.pool.submit(work)
        try:
            return future.result(timeout=max(0.0, until - time.monotonic()))
        except FutureTimeout:
            raise DeadlineExpired(f"kafka-python did not finish {what} within its {self.deadline:g}s deadline") \
                from None

    def run(self, op: str, connection: dict[str, Any] | None, args: dict[str, Any],
            api_keys: list[int]) -> dict[str, Any]:
        if op == "close":
            self.close(connection)
            return Call().answer(None)
        if op not in self.operations():
            raise LookupError(f"unknown op {op!r}")
        if connection is None:
            raise ValueError("this op needs a connection")
        library_settings(connection)  # a setting it can't take is this adapter's failure, before any call
        handler: Callable[[Any, dict[str, Any], Call], None] = OPS[op]
        call = Call()
        mark, started = self.log.mark(), time.monotonic()
        until, expired = started + self.deadline, False
        try:
            admin = self.client(connection, until)
            self._bounded(lambda: handler(admin, args, call), op, until)
        except (KeyError, TypeError) as exc:
            if _is_ours(exc):
                raise
            call.threw(exc)
        except Exception as exc:  # the library's exception is the observation
            call.threw(exc)
            expired = isinstance(exc, DeadlineExpired)
            if expired:
                self.clients.pop(client_key(connection), None)
        call.deadline_reached = reached(self.deadline, time.monotonic() - started, expired=expired)
        return call.answer(self.log.version_since(mark, api_keys))


def reached(deadline: float, took: float, *, expired: bool) -> float | None:
    """The deadline's seconds where the call returned only when it expired: it ended there or later, by this
    adapter's clock (a library timeout as long as the deadline ended it there too), or the deadline's own
    exception ended it."""
    return deadline if expired or took >= deadline else None


def _is_ours(exc: BaseException) -> bool:
    """A KeyError/TypeError raised in this file (a request it can't read) rather than in the library."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_filename == __file__


# -- releases before 3.0 (1.4.4 to 2.0.x): the same methods taking objects and returning raw responses; each ----
# -- difference is found on the method itself (its parameters), never by the release's number -----------------

CONFIG_SOURCES = {0: "UNKNOWN", 1: "DYNAMIC_TOPIC_CONFIG", 2: "DYNAMIC_BROKER_CONFIG",
                  3: "DYNAMIC_DEFAULT_BROKER_CONFIG", 4: "STATIC_BROKER_CONFIG", 5: "DEFAULT_CONFIG",
                  6: "DYNAMIC_BROKER_LOGGER_CONFIG"}
RESOURCE_TYPES = {2: "topic", 4: "broker"}


def accepts(method: Any, parameter: str) -> bool:
    """Whether a KafkaAdminClient method takes ``parameter`` (3.0 added ``raise_errors``, ``config_filter``)."""
    import inspect

    try:
        return parameter in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


def responses(result: Any) -> list[dict[str, Any]]:
    """A pre-3.0 result (a response, or a list of them) as plain dicts (its ``to_object``)."""
    return [r.to_object() for r in (result if isinstance(result, list) else [result])]


def older_topics(result: Any, key: str) -> list[dict[str, Any]]:
    """A pre-3.0 CreateTopics/CreatePartitions/DeleteTopics response's topics, in 3.0's names."""
    return [{"name": t["topic"], "error_code": t["error_code"], "error_message": t.get("error_message")}
            for r in responses(result) for t in r[key]]


def older_new_topics(topics: list[dict[str, Any]]) -> list[Any]:
    """create_topics' args as NewTopic objects (before 3.0): -1 is sent as it is (KIP-464 needs v4)."""
    from kafka.admin import NewTopic

    return [NewTopic(name, item.get("num_partitions", -1), item.get("replication_factor", -1),
                     replica_assignments=item.get("assignments"), topic_configs=item["configs"])
            for name, item in topics_spec(topics).items()]


def older_configs(result: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """Pre-3.0 DescribeConfigs responses by (kind, name): the error and each entry in 3.0's processed shape."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for response in responses(result):
        for res in response["resources"]:
            configs = {}
            for c in res["config_entries"]:
                raw: dict[str, Any] = {"value": c["config_value"], "read_only": c["read_only"],
                                       "is_sensitive": c["is_sensitive"]}
                if "config_source" in c:
                    raw["config_source"] = CONFIG_SOURCES.get(c["config_source"], str(c["config_source"]))
                if "is_default" in c:
                    raw["is_default"] = c["is_default"]
                if "config_synonyms" in c:
                    raw["synonyms"] = [{"name": s["config_name"], "value": s["config_value"],
                                        "source": CONFIG_SOURCES.get(s["config_source"])}
                                       for s in c["config_synonyms"]]
                configs[c["config_names"]] = raw
            kind = RESOURCE_TYPES.get(res["resource_type"], str(res["resource_type"]))
            found[(kind, res["resource_name"])] = {"error_code": res["error_code"],
                                                   "error_message": res["error_message"], "configs": configs}
    return found


# -- the operations (each: admin, args, call) ----------------------------------------------------------------


def create_topics(admin: Any, args: dict[str, Any], call: Call) -> None:
    validate = bool(args.get("validate_only"))
    if accepts(admin.create_topics, "raise_errors"):
        topics = plain(admin.create_topics(topics_spec(args["topics"]), validate_only=validate,
                                           raise_errors=False))["topics"]
    else:
        topics = older_topics(admin.create_topics(older_new_topics(args["topics"]), validate_only=validate),
                              "topic_errors")
    seen: list[str] = []
    for topic in topics:
        fields: dict[str, Any] = {}
        if topic.get("error_code", 0) == 0:
            for key in ("num_partitions", "replication_factor"):
                if key in topic:
                    fields[key] = topic[key]
            if "configs" in topic:
                configs = topic["configs"] or {}
                fields["configs"] = [config_entry(n, dict(c)) for n, c in configs.items()]
            if "topic_config_error_code" in topic:
                fields["topic_config_error_code"] = topic["topic_config_error_code"]
        seen.extend(k for k in ("num_partitions", "replication_factor", "configs") if k in topic and k not in seen)
        call.resources.append(entry(topic["name"], message=topic.get("error_message"), fields=fields,
                                    code=topic.get("error_code", 0)))
    call.result_fields.extend(seen)


def create_partitions(admin: Any, args: dict[str, Any], call: Call) -> None:
    validate = bool(args.get("validate_only"))
    if accepts(admin.create_partitions, "raise_errors"):
        topics = plain(admin.create_partitions(partitions_spec(args["partitions"]), validate_only=validate,
                                               raise_errors=False))["results"]
    else:
        from kafka.admin import NewPartitions

        wanted = {p["topic"]: NewPartitions(p["total_count"], p.get("assignments")) for p in args["partitions"]}
        topics = older_topics(admin.create_partitions(wanted, validate_only=validate), "topic_errors")
    for topic in topics:
        call.resources.append(entry(topic["name"], message=topic.get("error_message"), code=topic["error_code"]))


def describe_configs(admin: Any, args: dict[str, Any], call: Call) -> None:
    """Every config (config_filter 'all'); kafka-python has no include_documentation option."""
    from kafka.admin import ConfigResource

    if args.get("include_documentation"):
        call.unsupported.append("include_documentation")
    targets = [(t["resource_type"].lower(), t["name"]) for t in args["targets"]]
    if not accepts(admin.describe_configs, "config_filter"):
        _describe_configs_older(admin, targets, bool(args.get("include_synonyms")), call)
        return
    result = admin.describe_configs([ConfigResource(t, n) for t, n in targets],
                                    include_synonyms=bool(args.get("include_synonyms")), config_filter="all")
    seen: list[str] = []
    for kind, name in targets:
        configs = [config_entry(n, dict(c)) for n, c in result.get(kind, {}).get(name, {}).items()]
        for config in configs:
            seen.extend(k for k in config if k not in seen)
        call.resources.append(entry(f"{kind}:{name}", fields={"configs": configs}))
    call.result_fields.extend(f"configs.{k}" for k in seen)


def _describe_configs_older(admin: Any, targets: list[tuple[str, str]], synonyms: bool, call: Call) -> None:
    """Before 3.0: the raw responses, each resource with the broker's error."""
    from kafka.admin import ConfigResource

    found = older_configs(admin.describe_configs([ConfigResource(t, n) for t, n in targets],
                                                 include_synonyms=synonyms))
    seen: list[str] = []
    for kind, name in targets:
        res = found.get((kind, name), {"error_code": 2, "error_message": "no result for this resource", "configs": {}})
        configs = [config_entry(n, c) for n, c in res["configs"].items()]
        for config in configs:
            seen.extend(k for k in config if k not in seen)
        call.resources.append(entry(f"{kind}:{name}", fields={"configs": configs} if not res["error_code"] else {},
                                    code=res["error_code"], message=res["error_message"]))
    call.result_fields.extend(f"configs.{k}" for k in seen)


def list_topics(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python's list_topics names every topic, internal ones too: it has no option to hide them."""
    if not args.get("list_internal", True):
        call.unsupported.append("list_internal")
    for name in sorted(admin.list_topics()):
        call.resources.append(entry(name))


def _acl(spec: dict[str, Any]) -> Any:
    from kafka.admin import (ACL, ACLOperation, ACLPermissionType, ACLResourcePatternType, ResourcePattern,
                             ResourceType)

    return ACL(spec["principal"], spec["host"], ACLOperation[spec["operation"].upper()],
               ACLPermissionType[spec["permission"].upper()],
               ResourcePattern(ResourceType[spec["resource_type"].upper()], spec["resource_name"],
                               ACLResourcePatternType[spec["pattern"].upper()]))


def create_acls(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python lists the failures' error classes alone, in request order: each is matched to the ACL it
    belongs to by that order (no error message reaches the caller)."""
    acls = [_acl(spec) for spec in args["acls"]]
    result = admin.create_acls(acls)
    succeeded = {id(a) for a in result["succeeded"]}
    failures = list(result["failed"])
    for spec, acl in zip(args["acls"], acls, strict=True):
        if id(acl) in succeeded:
            call.resources.append(entry(_filter_label(spec)))
        else:
            failed = failures.pop(0) if failures else None
            error = failed[-1] if isinstance(failed, tuple) else failed
            call.resources.append(entry(_filter_label(spec), error))


def describe_topics(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python describes topics through Metadata (no DescribeTopicPartitions): request_version is null."""
    names = list(args["names"])
    found = {t.get("name", t.get("topic")): t for t in admin.describe_topics(names)}  # "topic" before 3.0
    call.result_fields.append("partitions")
    for name in names:
        topic = found.get(name)
        if topic is None:
            call.resources.append(entry(name, code=3, message="not in the Metadata response"))
            continue
        fields = {"partitions": len(topic.get("partitions") or [])} if topic["error_code"] == 0 else {}
        call.resources.append(entry(name, fields=fields, code=topic["error_code"]))


def delete_topics(admin: Any, args: dict[str, Any], call: Call) -> None:
    ids = [uuid.UUID(i) for i in args.get("topic_ids") or ()]
    if accepts(admin.delete_topics, "raise_errors"):
        topics = plain(admin.delete_topics(ids or list(args.get("names") or ()), raise_errors=False))["topics"]
    elif ids:
        raise NotImplementedError("this kafka-python's delete_topics takes topic names only")
    else:
        topics = older_topics(admin.delete_topics(list(args.get("names") or ())), "topic_error_codes")
    for topic in topics:
        label = topic.get("name") if not ids else str(topic.get("topic_id"))
        call.resources.append(entry(str(label), message=topic.get("error_message"), code=topic["error_code"]))


def describe_cluster(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python asks for the authorized operations whatever the caller wants (it has no option)."""
    result = admin.describe_cluster()
    call.result_fields.extend(["nodes", "controller", "cluster_id"])
    fields: dict[str, Any] = {"nodes": sorted(b.get("broker_id", b.get("node_id")) for b in result["brokers"]),
                              "controller": result["controller_id"] if result.get("controller_id", -1) >= 0
                              else None,
                              "cluster_id": result.get("cluster_id")}
    if "authorized_operations" in result:
        call.result_fields.append("authorized_operations")
        granted = result["authorized_operations"]
        fields["authorized_operations"] = None if granted is None else sorted(str(o) for o in granted)
    call.resources.append(entry("cluster", fields=fields))


def _alter(admin: Any, args: dict[str, Any], call: Call, incremental: bool) -> None:
    """alter_configs with ``incremental`` forced (kafka-python picks IncrementalAlterConfigs by itself where the
    broker has it); unknown names are left for the broker to judge (raise_on_unknown off)."""
    if incremental and not accepts(admin.alter_configs, "incremental"):  # before 3.0: no AlterConfigOp either
        raise NotImplementedError("this kafka-python's alter_configs has no incremental mode")
    from kafka.admin import AlterConfigOp, ConfigResource

    resources = []
    for item in args["resources"]:
        target = item["target"]
        if incremental:
            configs: dict[str, Any] = {o["name"]: (AlterConfigOp[o["op"]], o.get("value")) for o in item["ops"]}
        else:
            configs = dict(item["configs"])
        resources.append(ConfigResource(target["resource_type"].lower(), target["name"], configs))
    if not accepts(admin.alter_configs, "incremental"):
        _alter_older(admin, args, resources, incremental, call)
        return
    result = admin.alter_configs(resources, validate_only=bool(args.get("validate_only")), raise_on_unknown=False,
                                 incremental=incremental)
    for item in args["resources"]:
        kind, name = item["target"]["resource_type"].lower(), item["target"]["name"]
        outcome = result.get(kind, {}).get(name)
        if outcome is None or outcome == "OK":
            call.resources.append(entry(f"{kind}:{name}", code=0 if outcome == "OK" else 2,
                                        message=None if outcome == "OK" else "no result for this resource"))
        else:
            call.resources.append(_error_text(f"{kind}:{name}", str(outcome)))


def _alter_older(admin: Any, args: dict[str, Any], resources: list[Any], incremental: bool, call: Call) -> None:
    """Before 3.0: AlterConfigs alone (no validate_only, no incremental mode), the raw responses."""
    if incremental:
        raise NotImplementedError("this kafka-python's alter_configs has no incremental mode")
    if args.get("validate_only"):
        call.unsupported.append("validate_only")
    found = {(RESOURCE_TYPES.get(r["resource_type"]), r["resource_name"]): r
             for response in responses(admin.alter_configs(resources)) for r in response["resources"]}
    for item in args["resources"]:
        kind, name = item["target"]["resource_type"].lower(), item["target"]["name"]
        res = found.get((kind, name), {"error_code": 2, "error_message": "no result for this resource"})
        call.resources.append(entry(f"{kind}:{name}", code=res["error_code"], message=res["error_message"]))


def _error_text(resource: str, text: str) -> dict[str, Any]:
    """A result kafka-python gives as an error's text, ``[Error 42] InvalidRequestError: ...``."""
    import kafka.errors as errors

    if text.startswith("[Error ") and "]" in text:
        code = int(text[len("[Error "):text.index("]")])
        return entry(resource, errors.for_code(code), text)
    error = getattr(errors, text.split(":", 1)[0].strip(), None)
    return entry(resource, error if isinstance(error, type) else RuntimeError, text)


def alter_configs(admin: Any, args: dict[str, Any], call: Call) -> None:
    _alter(admin, args, call, incremental=False)


def incremental_alter_configs(admin: Any, args: dict[str, Any], call: Call) -> None:
    _alter(admin, args, call, incremental=True)


def _acl_filter(spec: dict[str, Any], call: Call) -> Any:
    from kafka.admin import (ACLFilter, ACLOperation, ACLPermissionType, ACLResourcePatternType,
                             ResourcePatternFilter, ResourceType)

    return ACLFilter(spec.get("principal"), spec.get("host"), ACLOperation[spec["operation"].upper()],
                     ACLPermissionType[spec["permission"].upper()],
                     ResourcePatternFilter(ResourceType[spec["resource_type"].upper()], spec.get("resource_name"),
                                           ACLResourcePatternType[spec["pattern"].upper()]))


def _labels(acls: Any) -> list[str]:
    return sorted(acl_label(a.resource_pattern.resource_type.name, a.resource_pattern.resource_name, a.principal,
                            a.operation.name, a.permission_type.name) for a in acls)


def _filter_label(spec: dict[str, Any]) -> str:
    return (f"{spec['resource_type']}:{spec.get('resource_name') or '*'}:{spec.get('principal') or '*'}:"
            f"{spec['operation']}:{spec['permission']}")


def describe_acls(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python raises the broker's error for the filter: it becomes the filter's result."""
    spec = args["filter"]
    try:
        acls, error = admin.describe_acls(_acl_filter(spec, call))
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry(_filter_label(spec), exc))
        return
    code = kafka_name(error)[0]
    call.resources.append(entry(_filter_label(spec), None if code == 0 else error,
                                fields={"bindings": _labels(acls)} if code == 0 else {}))


def delete_acls(admin: Any, args: dict[str, Any], call: Call) -> None:
    filters = [_acl_filter(spec, call) for spec in args["filters"]]
    results = admin.delete_acls(filters)
    for spec, (_, matched, error) in zip(args["filters"], results, strict=False):
        code = kafka_name(error)[0]
        call.resources.append(entry(_filter_label(spec), None if code == 0 else error,
                                    fields={"deleted": _labels(matched)} if code == 0 else {}))


def list_consumer_groups(admin: Any, args: dict[str, Any], call: Call) -> None:
    states = list(args.get("states") or ())
    groups = admin.list_groups(states_filter=states) if states else admin.list_groups()
    with_state = any("group_state" in g for g in groups)
    if with_state:
        call.result_fields.append("state")
    for group in groups:
        call.resources.append(entry(group["group_id"], fields={"state": group.get("group_state")} if with_state
                                    else {}))


def describe_consumer_groups(admin: Any, args: dict[str, Any], call: Call) -> None:
    groups = list(args["groups"])
    asked = bool(args.get("include_authorized_operations"))
    described = admin.describe_groups(groups, include_authorized_operations=asked)
    call.result_fields.extend(["state", "members", "partition_assignor"])
    if asked:
        call.result_fields.append("authorized_operations")
    for group in groups:
        found = described.get(group)
        if found is None:
            call.resources.append(entry(group, code=69, message="no description for this group"))
            continue
        if found.get("error"):
            call.resources.append(_error_text(group, str(found["error"])))
            continue
        fields: dict[str, Any] = {
            "state": found.get("group_state"), "partition_assignor": found.get("protocol_data"),
            "members": [{"member_id": m.get("member_id"), "client_id": m.get("client_id"),
                         "host": m.get("client_host", m.get("host")), "group_instance_id": m.get("group_instance_id")}
                        for m in found.get("members") or ()]}
        if asked:
            granted = found.get("authorized_operations")
            fields["authorized_operations"] = None if granted is None else [str(o) for o in granted]
        call.resources.append(entry(group, fields=fields))


def delete_consumer_groups(admin: Any, args: dict[str, Any], call: Call) -> None:
    import kafka.errors as errors

    groups = list(args["groups"])
    result = admin.delete_groups(groups)
    outcomes = dict(result) if isinstance(result, dict) else {g: e for g, e in result}
    for group in groups:
        outcome = outcomes.get(group)
        if outcome in ("OK", None) or outcome is errors.NoError:
            call.resources.append(entry(group))
        elif isinstance(outcome, type):
            call.resources.append(entry(group, outcome))
        else:
            error = getattr(errors, str(outcome), None)
            call.resources.append(entry(group, error, str(outcome)) if isinstance(error, type)
                                  else _error_text(group, str(outcome)))


def list_consumer_group_offsets(admin: Any, args: dict[str, Any], call: Call) -> None:
    from kafka.structs import TopicPartition

    group = args["group"]
    partitions = args.get("partitions")
    wanted = None if partitions is None else [TopicPartition(t, p) for t, p in partitions]
    call.result_fields.extend(["offset", "metadata"])
    try:
        offsets = admin.list_group_offsets({group: wanted})[group]
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry(group, exc))
        return
    for tp, offset in offsets.items():
        call.resources.append(entry(f"{tp.topic}:{tp.partition}", fields={
            "offset": None if offset is None else offset.offset,
            "metadata": None if offset is None else offset.metadata}))


def alter_consumer_group_offsets(admin: Any, args: dict[str, Any], call: Call) -> None:
    from kafka.structs import OffsetAndMetadata, TopicPartition

    offsets = {TopicPartition(t, p): OffsetAndMetadata(o, "", -1) for t, p, o in args["offsets"]}
    result = admin.alter_group_offsets(args["group"], offsets)
    for tp in offsets:
        call.resources.append(entry(f"{tp.topic}:{tp.partition}", result.get(tp)))


def delete_records(admin: Any, args: dict[str, Any], call: Call) -> None:
    from kafka.structs import TopicPartition

    request = {TopicPartition(b["topic"], b["partition"]): b["offset"] for b in args["before"]}
    result = admin.delete_records(request)
    call.result_fields.append("low_watermark")
    for tp in request:
        found = result.get(tp) or {}
        code = int(found.get("error_code", 0))
        call.resources.append(entry(f"{tp.topic}:{tp.partition}", code=code,
                                    fields={"low_watermark": found.get("low_watermark")} if code == 0 else {}))


def list_offsets(admin: Any, args: dict[str, Any], call: Call) -> None:
    """One call for every query: kafka-python raises the first partition's error for the whole call."""
    from kafka.admin import OffsetSpec
    from kafka.structs import TopicPartition

    specs = {"earliest": OffsetSpec.EARLIEST, "latest": OffsetSpec.LATEST,
             "max_timestamp": OffsetSpec.MAX_TIMESTAMP}
    request = {TopicPartition(q["topic"], q["partition"]): q["timestamp"] if q["spec"] == "timestamp"
               else specs[q["spec"]] for q in args["queries"]}
    call.result_fields.extend(["offset", "timestamp", "leader_epoch"])
    result = admin.list_partition_offsets(request)
    for tp in request:
        found = result.get(tp)
        fields: dict[str, Any] = {} if found is None else {"offset": found.offset, "timestamp": found.timestamp}
        epoch = getattr(found, "leader_epoch", None)
        if isinstance(epoch, int) and epoch >= 0:
            fields["leader_epoch"] = epoch
        call.resources.append(entry(f"{tp.topic}:{tp.partition}", fields=fields))


def elect_leaders(admin: Any, args: dict[str, Any], call: Call) -> None:
    """kafka-python 3 takes {topic: [partitions]}; the response's error fields become the results."""
    wanted: dict[str, list[int]] = {}
    for item in args["partitions"]:
        wanted.setdefault(item["topic"], []).append(item["partition"])
    election = {"PREFERRED": 0, "UNCLEAN": 1}[args["election_type"].upper()]
    response = plain(admin.elect_leaders(election, wanted, raise_errors=False))
    labels = [f"{i['topic']}-{i['partition']}" for i in args["partitions"]]
    top = int(response.get("error_code", 0) or 0)
    if top != 0:
        call.resources.extend(entry(label, code=top) for label in labels)
        return
    found = {f"{r['topic']}-{p['partition_id']}": p for r in response["replica_election_results"]
             for p in r["partition_result"]}
    for label in labels:
        result = found.get(label)
        call.resources.append(entry(label, code=2, message="no result for this partition") if result is None
                              else entry(label, message=result.get("error_message"), code=result["error_code"]))


def alter_partition_reassignments(admin: Any, args: dict[str, Any], call: Call) -> None:
    from kafka.structs import TopicPartition

    request = {TopicPartition(r["partition"]["topic"], r["partition"]["partition"]):
               None if r["replicas"] is None else list(r["replicas"]) for r in args["reassignments"]}
    result = admin.alter_partition_reassignments(request)
    for tp in request:
        label = f"{tp.topic}-{tp.partition}"
        call.resources.append(entry(label, result[tp]) if tp in result
                              else entry(label, code=2, message="the broker reported nothing for this partition"))


def list_partition_reassignments(admin: Any, args: dict[str, Any], call: Call) -> None:
    from kafka.structs import TopicPartition

    call.result_fields.extend(["replicas", "adding_replicas", "removing_replicas"])
    partitions = args.get("partitions")
    asked = None if partitions is None else [TopicPartition(p["topic"], p["partition"]) for p in partitions]
    try:
        found = admin.list_partition_reassignments(asked)
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry("*", exc))
        return
    for tp, state in found.items():
        call.resources.append(entry(f"{tp.topic}-{tp.partition}", fields={
            "replicas": state["replicas"], "adding_replicas": state["adding_replicas"],
            "removing_replicas": state["removing_replicas"]}))


def describe_log_dirs(admin: Any, args: dict[str, Any], call: Call) -> None:
    """One result per (broker, log dir), ``<broker>:<dir>``; a broker that failed as a whole is ``<broker>:*``."""
    brokers = list(args["brokers"])
    volumes = False
    for broker in brokers:
        try:
            answers = admin.describe_log_dirs(brokers=[broker])
        except Exception as exc:  # this broker's failure (unknown to the client, unreachable): its result
            call.resources.append(entry(f"{broker}:*", exc))
            continue
        for answer in answers:
            for log_dir in answer.get("log_dirs") or ():
                replicas = [{"topic": topic["name"], "partition": p["partition_index"], "size": p.get("partition_size"),
                             "offset_lag": p.get("offset_lag"), "is_future": p.get("is_future_key")}
                            for topic in log_dir.get("topics") or () for p in topic.get("partitions") or ()]
                fields: dict[str, Any] = {"replicas": replicas}
                for key in ("total_bytes", "usable_bytes"):
                    if key in log_dir:
                        volumes = True
                        fields[key] = None if log_dir[key] is None or log_dir[key] < 0 else log_dir[key]
                call.resources.append(entry(f"{answer.get('broker', broker)}:{log_dir['log_dir']}", fields=fields,
                                            code=int(log_dir.get("error_code", 0))))
    call.result_fields.append("replicas")
    if volumes:
        call.result_fields.extend(["total_bytes", "usable_bytes"])


def delete_consumer_group_offsets(admin: Any, args: dict[str, Any], call: Call) -> None:
    """One result per partition; the group's own error (kafka-python raises it) is a result named by the group."""
    from kafka.structs import TopicPartition

    group = args["group"]
    partitions = [TopicPartition(t, p) for t, p in args["partitions"]]
    try:
        result = admin.delete_group_offsets(group, partitions)
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry(group, exc))
        return
    for tp in partitions:
        label = f"{tp.topic}:{tp.partition}"
        call.resources.append(entry(label, result[tp]) if tp in result
                              else entry(label, code=3, message="the broker reported nothing for this partition"))


def describe_features(admin: Any, args: dict[str, Any], call: Call) -> None:
    """KIP-584's feature flags as the sidecar writes them: {name: [min, max]} supported and finalized.

    kafka-python 3.0.12 answers {feature: {"supported": (min, max), "finalized": (min, max), "finalized_epoch":
    n}}, not the {"supported_features": ..., "finalized_features": ..., "finalized_features_epoch": n} its
    docstring describes: both shapes are read."""
    found = admin.describe_features()
    if "supported_features" in found or "finalized_features" in found:
        features = {"supported": {n: list(r) for n, r in (found.get("supported_features") or {}).items()},
                    "finalized": {n: list(r) for n, r in (found.get("finalized_features") or {}).items()},
                    "finalized_epoch": found.get("finalized_features_epoch")}
    else:
        epochs = {f["finalized_epoch"] for f in found.values() if f.get("finalized_epoch") is not None}
        features = {"supported": {n: list(f["supported"]) for n, f in found.items() if "supported" in f},
                    "finalized": {n: list(f["finalized"]) for n, f in found.items() if "finalized" in f},
                    "finalized_epoch": max(epochs) if epochs else None}
    call.result_fields.append("features")
    call.resources.append(entry("cluster", fields={"features": features}))


def list_config_resources(admin: Any, args: dict[str, Any], call: Call) -> None:
    """Each listed resource as ``TYPE:name``; kafka-python raises the response's error, the result ``cluster``."""
    try:
        listed = admin.list_config_resources(list(args["resource_types"]) or None)
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry("cluster", exc))
        return
    call.resources.extend(entry(f"{kind.upper()}:{name}") for kind, names in sorted(listed.items())
                          for name in sorted(names))


def describe_metadata_quorum(admin: Any, args: dict[str, Any], call: Call) -> None:
    """The ``__cluster_metadata-0`` partition of the answer, as the sidecar writes it (voters' and observers'
    ids sorted); kafka-python raises the response's own error, and gives the partition's as its text."""
    call.result_fields.extend(["leader_id", "leader_epoch", "high_watermark", "voters", "observers"])
    try:
        answer = admin.describe_metadata_quorum()
    except Exception as exc:
        if kafka_name(type(exc))[0] < 0:
            raise
        call.resources.append(entry("__cluster_metadata-0", exc))
        return
    found = [(t["topic_name"], p) for t in answer["topics"] for p in t["partitions"]]
    for topic, partition in found:
        label = f"{topic}-{partition['partition_index']}"
        if partition.get("error"):
            call.resources.append(_error_text(label, str(partition["error"])))
            continue
        call.resources.append(entry(label, fields={
            "leader_id": partition["leader_id"], "leader_epoch": partition["leader_epoch"],
            "high_watermark": partition["high_watermark"],
            "voters": sorted(v["replica_id"] for v in partition["current_voters"]),
            "observers": sorted(o["replica_id"] for o in partition["observers"])}))


OPS: dict[str, Callable[[Any, dict[str, Any], Call], None]] = {
    "create_topics": create_topics, "create_partitions": create_partitions, "describe_configs": describe_configs,
    "list_topics": list_topics, "create_acls": create_acls, "describe_topics": describe_topics,
    "delete_topics": delete_topics, "describe_cluster": describe_cluster, "alter_configs": alter_configs,
    "incremental_alter_configs": incremental_alter_configs, "describe_acls": describe_acls,
    "delete_acls": delete_acls, "list_consumer_groups": list_consumer_groups,
    "describe_consumer_groups": describe_consumer_groups, "delete_consumer_groups": delete_consumer_groups,
    "list_consumer_group_offsets": list_consumer_group_offsets,
    "alter_consumer_group_offsets": alter_consumer_group_offsets, "delete_records": delete_records,
    "list_offsets": list_offsets, "elect_leaders": elect_leaders,
    "alter_partition_reassignments": alter_partition_reassignments,
    "list_partition_reassignments": list_partition_reassignments, "describe_log_dirs": describe_log_dirs,
    "delete_consumer_group_offsets": delete_consumer_group_offsets, "describe_features": describe_features,
    "list_config_resources": list_config_resources, "describe_metadata_quorum": describe_metadata_quorum,
}


def answer(adapter: Adapter, line: str) -> dict[str, Any]:
    """One answer line for one request line; whatever goes wrong in the adapter itself is a failure answer."""
    request: Any = None
    try:
        request = json.loads(line)
        return {"id": request["id"], "result": adapter.run(request["op"], request.get("connection"),
                                                           request.get("args") or {},
                                                           list(request.get("api_keys") or ()))}
    except Exception as exc:
        ident = request.get("id") if isinstance(request, dict) else None
        return {"id": ident, "failure": {"class": type(exc).__name__, "message": str(exc).replace("\n", " ")}}


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but protocol lines on the real stdout
    adapter = Adapter(call_deadline(os.environ))
    out.write(json.dumps({"ready": adapter.version, "protocol": PROTOCOL, "operations": adapter.operations()}) + "\n")
    out.flush()
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(answer(adapter, line), default=str) + "\n")
            out.flush()
    adapter.close(None)
    adapter.pool.shutdown(wait=False, cancel_futures=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
