"""Values the handlers return or leak on purpose, shared with the tests that look for
them (importable both as `markers` in a server process and `runtime_support.markers`)."""

SECRET = "db-password=hunter2 at /srv/orders/internal.py"
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452")
