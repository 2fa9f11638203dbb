"""The build cache: a layer around `pipeline.compile`, never a branch inside it.

`store.Store.reuse` hands back the Compilation a full compile would return, rebuilt from the
previous build's per-tool units when only some tools changed; `Store.remember` keeps a new
one. `uptodate` decides from raw bytes whether a build would change nothing at all. What is
stored can never execute (`codec`, `trust`). Nothing below this package imports it.

Kept light: `toolc build` runs the no-op check (`uptodate`, with `noop_ticket`) before the CLI
loads, so these import only the standard library (decision 0135)."""
