"""Contract evolution: which changes between two versions of a tool's contract break its
callers (`rules`, `compare`, `walk`, `keywords`: pure functions over contract documents), the
version step they require (`findings`, `verdict`), and the guard, baselines, `toolc diff`'s
report and `toolc bump`'s edit built on them. Import the modules themselves: this package
loads nothing, so `toolc explain` reading the rule table stays fast."""
