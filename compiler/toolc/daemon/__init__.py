"""The build daemon (decision 0123): a resident toolc that runs `toolc build` and `toolc check`
for the user's own clients, its modules imported and its build caches in memory, so that a
one-tool edit pays neither the imports nor reading the cache. `toolc daemon start` starts it;
a `toolc build` finds it by its socket and hands it the command line, or runs as always."""
