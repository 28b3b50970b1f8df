"""Logging, configured once at the edge (the CLI, the server), never in the rules.

structlog writes one line per log event: JSON lines by default (what a log
collector wants), a readable coloured console line when stderr is a terminal.
Code everywhere else only calls :func:`get_logger`; tests can assert on log
events with ``structlog.testing.capture_logs``.
"""

from __future__ import annotations

import json as stdlib_json
import logging
import sys
from typing import Any

import orjson
import structlog
import structlog.tracebacks

__all__ = ["BoundPerConfiguration", "configure_logging", "enabled", "get_logger"]

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "error": logging.ERROR, "critical": logging.CRITICAL}


def configure_logging(json: bool | None = None, level: str = "info") -> None:
    """Send structlog output to stderr: JSON lines, or pretty when ``json`` is false.

    ``json=None`` picks JSON unless stderr is a terminal. Standard-library loggers
    (alembic, sqlalchemy) are routed to the same stream at the same level.
    """
    try:
        numeric = _LEVELS[level.lower()]
    except KeyError:
        raise ValueError(f"unknown log level {level!r} (known: {', '.join(_LEVELS)})") from None
    if json is None:
        json = not sys.stderr.isatty()
    # Tracebacks without the frames' local variables: those hold seat tokens, client
    # messages and hidden sheets, which must never reach a log (protocol.md).
    renderer: Any = (structlog.processors.JSONRenderer(serializer=_json_line) if json
                     else structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback))
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if json:
        processors.append(structlog.processors.ExceptionRenderer(
            structlog.tracebacks.ExceptionDictTransformer(show_locals=False)))
    processors.append(renderer)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=False,
    )
    root = logging.getLogger()
    root.handlers[:] = [logging.StreamHandler(sys.stderr)]
    root.setLevel(max(numeric, logging.WARNING))  # library chatter only when it matters


#: structlog's filtering wrapper classes (one per level, made once by structlog) -> the least level they keep.
_KEPT_FROM = {structlog.make_filtering_bound_logger(numeric): numeric for numeric in _LEVELS.values()}


#: structlog's configuration object, which ``structlog.configure`` changes in place: its wrapper class is read
#: there, where ``get_config()`` built a dict of five at every call (issue 16, once per command). ``None`` if a
#: structlog without it is installed: then ``get_config()`` is asked.
_STRUCTLOG_CONFIG: Any = getattr(getattr(structlog, "_config", None), "_CONFIG", None)
if not hasattr(_STRUCTLOG_CONFIG, "default_wrapper_class"):
    _STRUCTLOG_CONFIG = None


def enabled(level: str) -> bool:
    """Whether a record at ``level`` (``info``, ``warning``, ...) would be written with structlog's
    configuration now: ``False`` only when the configured wrapper class is one of structlog's filtering
    ones above that level (whose method for it does nothing); any other wrapper counts as keeping it.

    Why: the server's one ``info`` record per command cost about 45 k instructions even at
    ``--log-level warning`` (its fields, and the lazy logger bound again at every call before
    its no-op method was found); the connection asks this first and then builds none (issue 16,
    server CPU). Read at every call, so a later ``structlog.configure`` counts at once."""
    config = _STRUCTLOG_CONFIG
    wrapper = config.default_wrapper_class if config is not None else structlog.get_config()["wrapper_class"]
    return _LEVELS[level] >= _KEPT_FROM.get(wrapper, logging.NOTSET)


class BoundPerConfiguration:
    """``structlog.get_logger(name)``, bound once per configuration instead of at every call.

    Why (issue 16, server CPU): structlog's lazy logger (``cache_logger_on_first_use`` is off, so that a
    later ``configure`` counts) binds a new logger at every call: a context, a ``PrintLogger`` with its
    file's lock looked up, the wrapper; about half of what the server's ``info`` line per command cost
    (20 of 36 us here). :meth:`logger` binds again whenever what that binding reads of the
    configuration (wrapper class, logger factory, processors list, context class) is another object,
    so lines are written exactly as the lazy logger writes them (tests/test_logs.py); a processors list
    changed in place (``capture_logs``) is seen either way, as the bound logger holds that list."""

    def __init__(self, name: str) -> None:
        self.proxy: Any = structlog.get_logger(name)
        #: What the binding read of the configuration, and the logger bound then: one tuple, so that a thread
        #: reading it while another binds anew sees a pair that belongs together.
        self._kept: tuple[tuple[Any, ...], Any] = ((), None)

    def logger(self) -> Any:
        """The logger the lazy proxy would bind now."""
        config = _STRUCTLOG_CONFIG
        if config is None:  # a structlog without the configuration object: bound at every call, as before
            return self.proxy.bind()
        read, bound = self._kept
        if (not read or read[0] is not config.default_wrapper_class or read[1] is not config.logger_factory
                or read[2] is not config.default_processors or read[3] is not config.default_context_class):
            read = (config.default_wrapper_class, config.logger_factory, config.default_processors,
                    config.default_context_class)
            bound = self.proxy.bind()
            self._kept = (read, bound)
        return bound


def _json_line(event: dict[str, Any], default: Any = None, **_: Any) -> str:
    """One log event as a compact JSON line, by orjson: the server writes one per command, and
    stdlib ``json`` made it a quarter of the line's cost (issue 16, docs/benchmarks.md). What orjson
    refuses (an int beyond 64 bits, a key that is not a string) falls back to stdlib ``json``, so a
    log line is never lost to its content; ``default`` is structlog's fallback (``repr``)."""
    try:
        return orjson.dumps(event, default=default).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return stdlib_json.dumps(event, default=default)


def get_logger(name: str = "combat_server", **context: Any) -> Any:
    """A structlog logger bound to ``logger=name`` and any extra context."""
    return structlog.get_logger(name).bind(logger=name, **context)
