"""Logging is configured once at the edge: JSON lines by default, pretty on a terminal."""

from __future__ import annotations

import json
import sys
from typing import Iterator

import pytest
import structlog

from combat_server.logs import configure_logging, enabled, get_logger


@pytest.fixture(autouse=True)
def _reset_structlog() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_json_lines_by_default_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """Without a terminal, each log event is one JSON object on stderr with level and timestamp."""
    configure_logging()
    get_logger("test").info("command_done", fight_id="f1", seq=3)
    line = capsys.readouterr().err.strip()
    data = json.loads(line)
    assert data["event"] == "command_done" and data["fight_id"] == "f1" and data["seq"] == 3
    assert data["level"] == "info" and data["logger"] == "test" and data["timestamp"].endswith("Z")


def test_console_renderer_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    """json=False renders a readable console line instead of JSON."""
    configure_logging(json=False)
    get_logger("test").warning("slow_client", seat="gm")
    err = capsys.readouterr().err
    assert "slow_client" in err and "seat" in err
    with pytest.raises(json.JSONDecodeError):
        json.loads(err)


def test_level_filters_quieter_events(capsys: pytest.CaptureFixture[str]) -> None:
    """Events below the configured level are dropped."""
    configure_logging(json=True, level="warning")
    log = get_logger("test")
    log.info("hidden")
    log.warning("shown")
    lines = capsys.readouterr().err.strip().splitlines()
    assert [json.loads(ln)["event"] for ln in lines] == ["shown"]


def test_unknown_level_is_refused() -> None:
    """A misspelt level is a clear ValueError, not silence."""
    with pytest.raises(ValueError, match="unknown log level"):
        configure_logging(level="loud")


def test_capture_logs_sees_events() -> None:
    """Tests can assert on log events with structlog.testing.capture_logs."""
    configure_logging(json=True)
    with structlog.testing.capture_logs() as logs:
        get_logger("test").info("hello", n=1)
    assert logs == [{"event": "hello", "n": 1, "logger": "test", "log_level": "info"}]


LEVELS = ("debug", "info", "warning", "error", "critical")


def _written(level: str) -> bool:
    """The definition ``enabled`` stands for: a record at ``level`` through a lazy logger reaches the processors."""
    with structlog.testing.capture_logs() as logs:
        getattr(structlog.get_logger("test"), level)("probe")
    return bool(logs)


@pytest.mark.parametrize("configured", LEVELS)
def test_enabled_says_whether_a_record_at_a_level_would_be_written(configured: str) -> None:
    """issue 16: the server asks ``enabled("info")`` before building its per-command record."""
    configure_logging(json=True, level=configured)
    assert [enabled(level) for level in LEVELS] == [_written(level) for level in LEVELS]
    assert enabled("info") == (LEVELS.index(configured) <= LEVELS.index("info"))


@pytest.mark.parametrize("wrapper", [structlog.BoundLogger, structlog.make_filtering_bound_logger(0), None])
def test_enabled_by_default_and_for_wrappers_that_do_not_filter(wrapper: type | None) -> None:
    """Unconfigured, or configured with a wrapper class that is not one of structlog's filtering ones,
    every level counts as written (the record is built, as before)."""
    if wrapper is not None:
        structlog.configure(wrapper_class=wrapper)
    assert all(enabled(level) for level in LEVELS)
    assert all(_written(level) for level in LEVELS)


def _fail_holding_a_token(message: dict[str, str]) -> None:
    token = message["token"]
    raise RuntimeError(f"boom after reading a {len(token)}-character token")


@pytest.mark.parametrize("as_json", [True, False])
def test_tracebacks_leave_local_variables_out(capsys: pytest.CaptureFixture[str], as_json: bool) -> None:
    """An internal error's traceback names the frames, never their locals: a subscribe message's
    seat token (or a hidden sheet) in a local variable must not reach the log."""
    configure_logging(json=as_json)
    token = "-".join(["tSECRET", "seat", "token"])  # built, so the traceback's source lines cannot show it
    try:
        _fail_holding_a_token({"type": "subscribe", "token": token})
    except RuntimeError:
        get_logger("test").exception("internal_error")
    err = capsys.readouterr().err
    assert "internal_error" in err and "_fail_holding_a_token" in err and "boom" in err
    assert token not in err


@pytest.mark.parametrize("as_json", [True, False])
def test_an_internal_error_handed_over_as_an_exception_logs_its_traceback(capsys: pytest.CaptureFixture[str],
                                                                          as_json: bool) -> None:
    """The server logs a handler's bug after the handler returned (server/inbound.py: Inbound.answer), with
    the exception object as ``exc_info``: its traceback is still in the log, its locals are not."""
    configure_logging(json=as_json)
    token = "-".join(["tSECRET", "seat", "token"])
    try:
        _fail_holding_a_token({"type": "subscribe", "token": token})
    except RuntimeError as exc:
        caught = exc
    get_logger("test").error("internal_error", exc_info=caught)
    err = capsys.readouterr().err
    assert "internal_error" in err and "_fail_holding_a_token" in err and "boom" in err
    assert token not in err


def test_json_lines_are_compact_and_keep_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    """The server's line per command (orjson): one compact JSON object, every field as it was given,
    an object without a JSON form as its repr (structlog's fallback)."""
    configure_logging(json=True)

    class Opaque:
        def __repr__(self) -> str:
            return "<opaque>"

    get_logger("test").info("command", fight_id="f1", first_seq=7, latency_ms=0.412, outcome="ok", seat=None,
                            thing=Opaque(), text="é \"quoted\"")
    line = capsys.readouterr().err.strip()
    assert ": " not in line.replace('\\"quoted\\"', "")  # compact: no space after a colon
    data = json.loads(line)
    assert (data["fight_id"], data["first_seq"], data["latency_ms"], data["outcome"], data["seat"]) == \
        ("f1", 7, 0.412, "ok", None)
    assert data["thing"] == "<opaque>" and data["text"] == "é \"quoted\""


def test_a_field_orjson_refuses_still_logs_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    """An int beyond 64 bits or a non-string key (which orjson refuses) falls back to stdlib json:
    the line is written, not lost."""
    configure_logging(json=True)
    get_logger("test").warning("odd", big=2 ** 70, keyed={1: "one"})
    data = json.loads(capsys.readouterr().err.strip())
    assert data["big"] == 2 ** 70 and data["keyed"] == {"1": "one"} and data["event"] == "odd"


def test_enabled_reads_the_wrapper_class_that_configure_sets() -> None:
    """issue 16: ``enabled`` reads structlog's configuration object instead of building ``get_config()``'s
    dict; it must be the object ``configure`` changes (else the server would keep logging at a stale level)."""
    from combat_server import logs

    assert logs._STRUCTLOG_CONFIG is not None  # the fast read is in use with this structlog
    try:
        for level in LEVELS:
            configure_logging(json=True, level=level)
            assert logs._STRUCTLOG_CONFIG.default_wrapper_class is structlog.get_config()["wrapper_class"]
    finally:
        structlog.reset_defaults()


def _fixed_time(_logger: object, _name: str, event: dict[str, object]) -> dict[str, object]:
    event["timestamp"] = "2026-11-26T00:00:00.000000Z"
    return event


class _TaggedContext(dict):  # type: ignore[type-arg]
    """A context class of its own: a logger bound with it writes a line that says so."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self["context"] = "tagged"


def _reconfigurations() -> list[tuple[str, object]]:
    """What may change between two lines: the project's configurations, structlog's own, capture_logs."""
    return [
        ("json, info", lambda: configure_logging(json=True, level="info")),
        ("console, info", lambda: configure_logging(json=False, level="info")),
        ("json, warning", lambda: configure_logging(json=True, level="warning")),
        ("json, debug", lambda: configure_logging(json=True, level="debug")),
        ("structlog's processors", lambda: structlog.configure(processors=[structlog.processors.add_log_level,
                                                                          structlog.processors.KeyValueRenderer()])),
        ("structlog's wrapper", lambda: structlog.configure(wrapper_class=structlog.BoundLogger)),
        ("structlog's logger factory", lambda: structlog.configure(
            logger_factory=structlog.PrintLoggerFactory(sys.stdout))),
        ("structlog's context class", lambda: structlog.configure(context_class=_TaggedContext)),
        ("structlog's defaults", structlog.reset_defaults),
    ]


def test_a_logger_bound_per_configuration_writes_what_the_lazy_logger_writes(
        capsys: pytest.CaptureFixture[str]) -> None:
    """issue 16, server CPU: the server's ``Log`` effects (its ``info`` line per command) go through
    ``BoundPerConfiguration``, bound once per configuration; whatever was configured last (in any order),
    each line is the lazy logger's, byte for byte, and what ``capture_logs`` sees is the same too."""
    from combat_server.logs import BoundPerConfiguration

    per_configuration = BoundPerConfiguration("combat_server.server")
    lazy = structlog.get_logger("combat_server.server")
    fields = {"fight_id": "f1", "seat": "gm", "first_seq": 7, "outcome": "ok", "latency_ms": 0.412}
    for name, reconfigure in _reconfigurations() * 2:
        reconfigure()  # type: ignore[operator]
        processors = structlog.get_config()["processors"]
        processors[:] = [_fixed_time if isinstance(p, structlog.processors.TimeStamper) else p for p in processors]
        for level in ("info", "warning", "debug"):
            getattr(lazy, level)("command", **fields)
            by_lazy = capsys.readouterr()
            getattr(per_configuration.logger(), level)("command", **fields)
            assert capsys.readouterr() == by_lazy, (name, level)
        with structlog.testing.capture_logs() as by_lazy_captured:
            lazy.info("command", **fields)
        with structlog.testing.capture_logs() as captured:
            per_configuration.logger().info("command", **fields)
        assert captured == by_lazy_captured, name
