"""The build cache: a layer around `pipeline.compile`, never a branch inside it.

`store.Store.reuse` hands back the Compilation a full compile would return, rebuilt from the
previous build's per-tool units when only some tools changed; `Store.remember` keeps a new
one. `uptodate` decides from raw bytes whether a build would change nothing at all. What is
stored can never execute (`codec`, `trust`). Nothing below this package imports it.

Kept light: the no-op check imports `toolc.cache.uptodate` before anything heavy."""
