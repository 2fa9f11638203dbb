"""`python otel_run.py`: serves examples/retail's package (importable as `mcp_tools`)
in-process with an OpenTelemetry observer on an InMemoryMetricReader, makes a few calls
with the SDK's client, and prints the histogram's points as JSON (tests/test_server_otel)."""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp import Client
from mcp_tools.server import create_server
from mcp_tools.server_otel import otel_observer
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from retail_handlers import Handlers


async def calls(server: Any) -> None:
    async with Client(server) as client:
        await client.call_tool("consultar_pedidos", {"order_ids": ["P-100"]})
        await client.call_tool("consultar_pedidos", {"order_ids": ["P-100"]})
        await client.call_tool("consultar_pedidos", {"order_ids": ["P-500"]})
        await client.call_tool("cancelar_pedidos", {"order_ids": [7]})


def main() -> None:
    reader = InMemoryMetricReader()
    observer = otel_observer(MeterProvider(metric_readers=[reader]))
    anyio.run(calls, create_server(Handlers(), "retail", metrics=False, observer=observer))
    data = reader.get_metrics_data()
    assert data is not None
    points = [
        {
            "scope": scope.scope.name,
            "name": metric.name,
            "unit": metric.unit,
            "attributes": dict(point.attributes or {}),
            "count": point.count,  # type: ignore[union-attr]
            "sum": point.sum,  # type: ignore[union-attr]
            "kind": type(point).__name__,
        }
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        for point in metric.data.data_points
    ]
    print(json.dumps(points))


if __name__ == "__main__":
    main()
