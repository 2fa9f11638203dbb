"""`toolc test`: a test kit a user points at their own handlers. It imports the built package
and the handlers, serves them in-process through the SDK's own client, and checks every tool
from outside: sealed answers against the published schemas, near-miss arguments refused
before the handler, the multi-item guide's per-item evidence, the confirmation decline path.
It writes nothing."""
