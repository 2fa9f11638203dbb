"""Finishes datamodel-codegen's msgspec output for toolc's config models (make models; decision
0121): every Struct frozen, refusing unknown keys and leaving out unset fields when dumped; an
optional field that is absent is None, as the code reading the models expects, except the
schema keywords whose value may be null (`const`, `default`), which stay UNSET when absent.

    python scripts/config_structs.py MODULE.py   (rewritten in place, then formatted with black)
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

STRUCT_OPTIONS = {"frozen": True, "forbid_unknown_fields": True, "omit_defaults": True}
# (class, field): a stated null differs from an absent keyword there.
KEEP_UNSET = {("SchemaKeywords", "const"), ("SchemaKeywords", "default")}


class _Finish(ast.NodeTransformer):
    def __init__(self) -> None:
        self.cls = ""
        self.field = ""

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        if any(isinstance(b, ast.Name) and b.id == "Struct" for b in node.bases):
            given = {k.arg for k in node.keywords}
            node.keywords += [
                ast.keyword(name, ast.Constant(value))
                for name, value in STRUCT_OPTIONS.items()
                if name not in given
            ]
        self.cls = node.name
        self.generic_visit(node)
        self.cls = ""
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AnnAssign:
        self.field = node.target.id if isinstance(node.target, ast.Name) else ""
        if (self.cls, self.field) not in KEEP_UNSET:
            self.generic_visit(node)
        self.field = ""
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if self.field and node.id in ("UNSET", "UnsetType"):
            return ast.copy_location(ast.Constant(None), node)
        return node


def finish(text: str) -> str:
    lines = text.splitlines()
    leading = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    header = "".join(line + "\n" for line in lines[:leading])
    tree = _Finish().visit(ast.parse(text))
    return header + "\n" + ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def main() -> None:
    path = Path(sys.argv[1])
    path.write_text(finish(path.read_text(encoding="utf-8")), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "black", "-q", str(path)], check=True)


if __name__ == "__main__":
    main()
