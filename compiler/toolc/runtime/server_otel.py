"""OpenTelemetry as a second metrics exporter (issue 14: "welcome"): an Observer that
records the same `mcp_tool_duration_seconds` histogram, with the same labels (`tool`,
`version`, `error_type`: the envelope's code, `ok` for success; a proxied call's
outcome, decision 0102), through the OpenTelemetry metrics API. Pass it to
`create_server(observer=otel_observer())`; the exporter (OTLP, Prometheus, a reader of
one's own) is the application's MeterProvider's business. The generated package has no
extras: opentelemetry is imported only when this is called (decision 0103)."""

from __future__ import annotations

from typing import Any

from .server_metrics import METRIC, Observation, Observer

# The meter's name: the instrumentation scope exporters show beside the histogram.
SCOPE = "toolc.mcp_server"
DESCRIPTION = "Duration of MCP tools/call requests, by tool, version and envelope code."


def otel_observer(meter_provider: Any = None) -> Observer:
    """An observer recording each answered call in seconds, on `meter_provider` (else
    the global one that `opentelemetry.metrics.set_meter_provider` installed)."""
    try:
        from opentelemetry import metrics
    except ImportError as missing:
        raise RuntimeError(
            "the OpenTelemetry observer needs opentelemetry-api (and an SDK such "
            "as opentelemetry-sdk to export): "
            "pip install opentelemetry-api opentelemetry-sdk"
        ) from missing
    provider = (
        meter_provider if meter_provider is not None else metrics.get_meter_provider()
    )
    histogram = provider.get_meter(SCOPE).create_histogram(
        METRIC,
        unit="s",
        description=DESCRIPTION,
    )

    def observe(o: Observation) -> None:
        labels = {"tool": o.tool, "version": o.version, "error_type": o.error_type}
        histogram.record(o.seconds, attributes=labels)

    return observe
