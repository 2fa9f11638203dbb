"""docs/snapshot.md's worked example is what toolc computes, and its canonical forms hash to the
fingerprints it states: another implementation can check itself against the page."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

from conftest import FIXTURES, ROOT
from toolc import verbs

DOC = (ROOT / "docs" / "snapshot.md").read_text(encoding="utf-8")


def test_worked_example_matches_a_build(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    shutil.copytree(FIXTURES / "good" / "snapshot-example", config)
    result = verbs.build(
        config, tmp_path / "out" / "pkg", tmp_path / "snap.json", write=True, cwd=config
    )
    assert result.written
    line = (tmp_path / "snap.json").read_text().splitlines()[1].strip()
    assert line in DOC
    entry = json.loads("{" + line + "}")["ping"]
    blocks = re.findall(r"```text\n(.*?)\n```", DOC, re.S)
    schema_canonical, contract_canonical = blocks
    for canonical, fingerprint in (
        (schema_canonical, entry["schema"]),
        (contract_canonical, entry["contract"]),
    ):
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        assert digest.startswith(fingerprint) and digest in DOC
