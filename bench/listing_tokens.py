"""How close `toolc check --stats`'s token estimate (UTF-8 bytes / 4) is to a real tokenizer.

Not part of `make bench` (it needs a 41 MB tokenizer wheel toolc does not depend on). Run:

    python3 -m venv /tmp/tok && /tmp/tok/bin/pip install bpe-openai
    .venv/bin/python bench/listing_tokens.py --python /tmp/tok/bin/python

It builds the examples and the test configs, adds descriptions in Portuguese, Chinese,
Japanese (with emoji) and Russian, and prints the estimate's error against o200k_base on each
descriptor as the server sends it (compact JSON)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUPPORT = ROOT / "tests" / "runtime_support"
GOOD = ROOT / "tests" / "fixtures" / "good"
CONFIGS = [ROOT / "examples" / "retail", ROOT / "examples" / "telecom", SUPPORT / "lab",
           SUPPORT / "formats", *sorted(GOOD.iterdir())]  # fmt: skip
TEXTS = [
    "Cancela um ou mais pedidos do cliente, com confirmação única.",
    "取消一个或多个订单，并返回每个订单的结果。",
    "注文をキャンセルします 🎉🎉 emoji ✨",
    "Отменяет один или несколько заказов.",
]
COUNT = """
import json, sys
import bpe_openai
enc = bpe_openai.get_encoding("o200k_base")
print(json.dumps([len(enc.encode(t)) for t in json.load(sys.stdin)]))
"""


def descriptors(work: Path) -> list[str]:
    found = []
    for config in CONFIGS:
        if not (config / "tools.yaml").is_file():
            continue
        out = work / config.name / "pkg"
        subprocess.run([str(Path(sys.executable).parent / "toolc"), "build", str(config), "--out",
                        str(out), "--snapshot", str(work / f"{config.name}.json")],
                       check=True, capture_output=True)  # fmt: skip
        for tool in json.loads((out / "tools.json").read_text(encoding="utf-8"))["tools"]:
            found.append(json.dumps(tool, ensure_ascii=False, separators=(",", ":")))
    base = json.loads(found[0])
    for text in TEXTS:
        found.append(json.dumps({**base, "description": text * 20}, ensure_ascii=False,
                                separators=(",", ":")))  # fmt: skip
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="a Python with bpe-openai installed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        texts = descriptors(Path(work))
    counted = subprocess.run([args.python, "-c", COUNT], input=json.dumps(texts), text=True,
                             capture_output=True, check=True)  # fmt: skip
    real = json.loads(counted.stdout)
    errors = [(-(-len(t.encode()) // 4) - r) / r for t, r in zip(texts, real, strict=True)]
    print(f"{len(texts)} descriptors; estimate vs o200k_base: mean |error| "
          f"{100 * sum(map(abs, errors)) / len(errors):.1f} %, worst over "
          f"{100 * max(errors):+.1f} %, worst under {100 * min(errors):+.1f} %")  # fmt: skip


if __name__ == "__main__":
    main()
