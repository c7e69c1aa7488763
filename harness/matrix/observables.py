"""The vocabulary of observations: what each probe can observe, and the matchers claims use.

A claim's documented side is a set of ``key = matcher`` pairs; a probe (a
scenario function) fills the same keys from what a client returned.  Both
sides meet here: the claim loader checks every key a claim names against its
probe's vocabulary (so a typo is a load error, not a silent pass), and
``match`` compares one documented matcher with one observed value.

Observed values are JSON.  A key the client or request version does not have
is left out (``absent``); a value that raised when read is ``{"raised":
"ExceptionClass"}``.  Standard library only: the verdict is pure logic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ABSENT: Any = object()
"""What ``observed.get(key, ABSENT)`` gives for a key the observation does not have."""

CONFIG_ATTRIBUTES = ("value", "source", "read_only", "sensitive", "type", "documentation", "is_default",
                     "synonyms")


@dataclass(frozen=True)
class ProbeSpec:
    """What one probe observes (``keys``; ``config.<name>.<attribute>`` where ``configs``) and takes."""

    name: str
    keys: frozenset[str]
    args: Mapping[str, type | tuple[type, ...]]
    config_keys: bool = False
    about: str = ""
    sends_request: bool = True
    """False for a probe that only inspects the client library: no version of any API is involved."""

    def knows(self, key: str) -> bool:
        if key in self.keys:
            return True
        if self.config_keys and key.startswith("config."):
            name, _, attribute = key[len("config."):].rpartition(".")
            return bool(name) and attribute in CONFIG_ATTRIBUTES
        return False


_COMMON = frozenset({"error", "error_message", "exception", "unsupported_options"})

PROBES: dict[str, ProbeSpec] = {spec.name: spec for spec in (
    ProbeSpec("create_topic", _COMMON | {"num_partitions", "replication_factor", "configs", "topic_config_error",
                                         "created", "entry_fields"},
              {"partitions": int, "replication_factor": int, "configs": dict, "validate_only": bool,
               "as_user": str, "topic_acl": str},
              config_keys=True,
              about="CreateTopics of one new topic; `created` asks Metadata (as the super user) afterwards; "
                    "`topic_acl`: the super user first grants `as_user` this operation on the topic's name"),
    ProbeSpec("describe_configs", _COMMON | {"configs", "entry_fields", "types", "documented_entries"},
              {"resource": str, "include_documentation": bool, "include_synonyms": bool, "topic_configs": dict,
               "as_user": str, "topic_acl": str},
              config_keys=True,
              about="DescribeConfigs of a new topic or of the first broker (`topic_acl`: `as_user` is granted "
                    "this operation on the topic first)"),
    ProbeSpec("client_methods", frozenset({"methods", "exception"}), {"class": str},
              about="the public methods of a class of the client library (Java AdminClient only)",
              sends_request=False),
    ProbeSpec("create_partitions", _COMMON | {"partitions_after", "changed", "replicas_after", "leaders_after"},
              {"initial": int, "replication_factor": int, "count": int, "assignments": list, "validate_only": bool,
               "as_user": str, "target": str, "send_to": str, "topic_acl": str},
              about="CreatePartitions of a topic the super user created with `initial` partitions (target "
                    "`existing`, `unknown`: a topic nobody created, `duplicate`: the topic twice in one request; "
                    "send_to `non_controller`: the wire probe sends to a broker that is not the controller; "
                    "`topic_acl`: `as_user` is granted this operation on the topic first); "
                    "`partitions_after`, `replicas_after`, `leaders_after` are Metadata as the call returns"),
    ProbeSpec("create_topic_policy", _COMMON | {"created", "other_error", "other_error_message", "other_created",
                                                "policy_calls", "policy.topic", "policy.num_partitions",
                                                "policy.replication_factor", "policy.assignments", "policy.configs",
                                                "policy.broker_configs"},
              {"prefix": str, "partitions": int, "replication_factor": int, "configs": dict, "assignments": dict,
               "validate_only": bool, "other": bool},
              about="CreateTopics of a topic named `prefix`-... (and with `other`, an allowed topic in the same "
                    "request) on a cluster running the kcompat create-topic policy; `policy.*` is what the policy "
                    "recorded it received for the first topic"),
    ProbeSpec("list_topics", frozenset({"exception", "unsupported_options", "request_version", "created_listed",
                                        "internal_listed", "hidden_listed", "response_fields", "response_bytes",
                                        "list_topics_api", "api_names"}),
              {"list_internal": bool, "as_user": str, "internal_topic": bool, "hidden_topic": bool},
              about="the client's listTopics after the super user created a topic (`internal_topic`: and made "
                    "__consumer_offsets; `hidden_topic`: one `as_user` may not Describe); `response_*` is the "
                    "Metadata response at the version the client sent, re-read by the wire probe"),
    ProbeSpec("create_acls", _COMMON | {"created"}, {"as_user": str},
              about="CreateAcls of one binding (READ on a new topic for a principal nobody uses); `created` is "
                    "whether DescribeAcls, as the super user, then lists it"),
    ProbeSpec("describe_topics_listing", frozenset({"exception", "request_version", "metadata_listed", "described",
                                                    "hidden_error"}),
              {"as_user": str},
              about="two topics, `as_user` granted Describe on the first (`shown`) only: which of them the "
                    "client's listTopics (Metadata) lists (`metadata_listed`) and which its describe-topics "
                    "call describes without error (`described`: the wire probe lists every topic through "
                    "DescribeTopicPartitions, the others describe both by name; `hidden_error` is the error "
                    "for the other); `request_version` is of DescribeTopicPartitions, null if not sent"),
)}

_MATCHERS = ("present", "absent", "null", "missing", "type", "in", "contains", "raises")
_TYPES: dict[str, type | tuple[type, ...]] = {"string": str, "int": int, "bool": bool, "list": list, "object": dict, "number": (int, float)}
_EXCEPTION = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def check_matcher(value: Any) -> str | None:
    """Why ``value`` is not a valid matcher, or None when it is."""
    if not isinstance(value, dict):
        return None  # a literal: equality
    if len(value) != 1:
        return f"a matcher has exactly one of {', '.join(_MATCHERS)}; got {', '.join(value) or 'none'}"
    (kind, argument), = value.items()
    if kind not in _MATCHERS:
        return f"unknown matcher {kind!r}; known: {', '.join(_MATCHERS)}"
    if kind in ("present", "absent", "null", "missing") and argument is not True:
        return f"{kind} takes true"
    if kind == "type" and argument not in _TYPES:
        return f"type is one of {', '.join(_TYPES)}, not {argument!r}"
    if kind in ("in", "contains") and not isinstance(argument, list):
        return f"{kind} takes a list"
    if kind == "raises" and not (isinstance(argument, str) and _EXCEPTION.match(argument)):
        return f"raises takes an exception's simple class name, not {argument!r}"
    return None


def _is_type(value: Any, name: str) -> bool:
    if name in ("int", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[name])


def match(documented: Any, observed: Any) -> bool:
    """Whether one observed value (``ABSENT`` when not observed) meets one documented matcher."""
    raised = isinstance(observed, dict) and set(observed) == {"raised"}
    if not isinstance(documented, dict):
        return observed is not ABSENT and not raised and observed == documented
    (kind, argument), = documented.items()
    if kind == "absent":
        return observed is ABSENT
    if kind == "present":
        return observed is not ABSENT and not raised
    if kind == "null":
        return observed is None
    if kind == "missing":
        return observed is ABSENT or observed is None
    if kind == "raises":
        return raised and str(observed["raised"]).rsplit(".", 1)[-1] == argument
    if observed is ABSENT or raised:
        return False
    if kind == "type":
        return _is_type(observed, argument)
    if kind == "in":
        return observed in argument
    if kind == "contains":
        return isinstance(observed, list) and all(item in observed for item in argument)
    raise AssertionError(f"unchecked matcher {kind}")


def shown(observed: Any) -> Any:
    """An observed value as a record shows it (``ABSENT`` becomes the marker ``{"absent": true}``)."""
    return {"absent": True} if observed is ABSENT else observed
