"""Handlers of tests/runtime_support/formats: `get_issue` answers by `case` — `good` with
values every format accepts, `bad-date` with `created_at: "yesterday"`, `bad-uri` with
`html_url: "not a uri"`, `bad-nested` with a label's `updated` that is no date;
`list_issues` answers each number, an odd one with a `closed_at` that is no date-time."""

from __future__ import annotations

from typing import Any

from formats_tools.server_runtime import Items, ToolContext

GOOD = {
    "number": 7,
    "created_at": "2024-02-29T12:30:00.250+02:00",
    "html_url": "https://example.com/o/r/issues/7",
    "author_email": "dev@example.com",
    "labels": [{"name": "bug", "updated": "2024-02-29"}],
}


class Handlers:
    async def get_issue(self, args: Any, ctx: ToolContext) -> Any:
        bad = {
            "bad-date": {"created_at": "yesterday"},
            "bad-uri": {"html_url": "not a uri"},
            "bad-nested": {"labels": [{"name": "bug", "updated": "2024-02-30"}]},
        }
        return {**GOOD, **bad.get(args.case, {})}

    async def list_issues(self, args: Any, ctx: ToolContext) -> Any:
        return Items(
            [
                {"number": n, "ok": True, "closed_at": "soon" if n % 2 else None}
                for n in args.numbers
            ]
        )
