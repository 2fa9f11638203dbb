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


def test_a_version_bump_moves_the_digest_not_the_fingerprints(tmp_path: Path) -> None:
    """As the page says: the outputSchema pins `meta.version`, so the pinning digest
    changes with a patch bump, while `schema` and `contract` mask it and stay."""
    text = (FIXTURES / "good" / "snapshot-example" / "tools.yaml").read_text(encoding="utf-8")
    bumped = text.replace("version: 1.0.0", "version: 1.0.1", 1)
    assert bumped != text
    digests, entries = [], []
    for n, version in enumerate((text, bumped)):
        (tmp_path / str(n)).mkdir()
        (tmp_path / str(n) / "tools.yaml").write_text(version, encoding="utf-8")
        compiled = verbs.compile_config(tmp_path / str(n))
        assert compiled.package is not None
        (tool,) = json.loads(compiled.package.files["tools.json"])["tools"]
        digests.append(tool["_meta"]["dev.toolc/sha256"])
        (entry,) = compiled.package.snapshot.values()
        entries.append((entry.schema, entry.contract))
    assert digests[0] != digests[1] and entries[0] == entries[1]
