"""Describe configs through confluent-kafka's AdminClient; the detail options a release's C binding refuses
are left out and reported."""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from . import DESCRIBE_CONFIGS, DescribeConfigsArgs
from ...clients.base import AdminResult, ResourceOutcome, error_name
from ...clients.confluent import (
    CALL_TIMEOUT,
    CONFIG_TYPES,
    ENTRY_ORDER,
    ConfluentClient,
    config_entry,
    error_of,
    type_label,
)
from ...clients.kinds.confluent.shared import library
from ...errors import ConfigError, HarnessError


@DESCRIBE_CONFIGS.implement(ConfluentClient)
def describe_configs(client: ConfluentClient, args: DescribeConfigsArgs, version: int | None) -> AdminResult:
    unknown = [t.resource_type for t in args.targets if t.resource_type not in CONFIG_TYPES]
    if unknown:
        raise ConfigError(f"configs are described for topic and broker resources, not {unknown[0]!r}")
    resources = [library().admin.ConfigResource(CONFIG_TYPES[t.resource_type], t.name) for t in args.targets]
    options = {"include_synonyms": args.include_synonyms, "include_documentation": args.include_documentation,
               "request_timeout": 30}
    seen_fields: set[str] = set()

    def describe(resource: Any, future: Future[Any]) -> ResourceOutcome:
        label = f"{type_label(resource)}:{resource.name}"
        try:
            entries = future.result(timeout=CALL_TIMEOUT)
        except FutureTimeout as exc:
            raise HarnessError(f"confluent-kafka gave no answer for {label} in {CALL_TIMEOUT:.0f}s") from exc
        except Exception as exc:
            code, err, message = error_of(exc)
            return ResourceOutcome(label, code, error_name(code) if code >= 0 else err, message, {},
                                   type(exc).__name__)
        configs = [config_entry(entry) for entry in entries.values()]
        for entry in configs:
            seen_fields.update(entry)
        return ResourceOutcome(label, 0, "NONE", None, {"configs": configs})

    result = client.call("describe_configs", "DescribeConfigs", client.library.describe_configs, resources, options,
                         describe)
    return dataclasses.replace(result, result_fields=tuple(f"configs.{f}" for f in ENTRY_ORDER if f in seen_fields))
