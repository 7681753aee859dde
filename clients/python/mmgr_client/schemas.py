"""The Avro schemas of the repository's ``schemas/*.avsc``, assembled into self-contained documents.

The ``.avsc`` files hold one named type each and refer to the others by name. A serializer needs one
document with every named type defined where it is first used; :class:`SchemaSet` builds it from the
files, so the client never carries a copy of its own that could drift from the scorer's contract.

The files are looked for in ``$MMGR_SCHEMAS_DIR``, then in the package (``pip install`` copies them in
when it builds the package, see ``setup.py``), then in the repository the package lives in.
"""
from __future__ import annotations

import json
import os
import pathlib
from typing import Any, Dict, Optional, Set

import avro.schema

from .errors import MmgrError

PACKAGE_DIR = pathlib.Path(__file__).resolve().parent
BUNDLED_DIR = PACKAGE_DIR / "schemas"
REPOSITORY_DIR = PACKAGE_DIR.parent.parent.parent / "schemas"

_NAMED = ("record", "enum", "fixed")


def schema_dir() -> pathlib.Path:
    """Where the ``.avsc`` files are read from."""
    env = os.environ.get("MMGR_SCHEMAS_DIR")
    candidates = [pathlib.Path(env)] if env else [BUNDLED_DIR, REPOSITORY_DIR]
    for d in candidates:
        if d.is_dir() and any(d.glob("*.avsc")):
            return d
    raise MmgrError("no Avro schemas found in %s: install the package with pip from the repository "
                    "(pip install ./clients/python), run it from a checkout, or set MMGR_SCHEMAS_DIR to the "
                    "repository's schemas/ directory" % ", ".join(str(c) for c in candidates))


class SchemaSet:
    """The schemas of one directory, by type name."""

    def __init__(self, directory: Optional[pathlib.Path] = None) -> None:
        self.directory = pathlib.Path(directory) if directory else schema_dir()
        self._files: Dict[str, Dict[str, Any]] = {}
        for path in sorted(self.directory.glob("*.avsc")):
            with open(path, encoding="utf-8") as f:
                self._files[path.stem] = json.load(f)
        self._parsed: Dict[str, avro.schema.Schema] = {}

    def names(self) -> list:
        return sorted(self._files)

    def document(self, name: str) -> Dict[str, Any]:
        """The type as one self-contained schema document (named types inlined where first used)."""
        if name not in self._files:
            raise MmgrError("no schema %s in %s" % (name, self.directory))
        return self._expand(self._files[name], set())

    def text(self, name: str) -> str:
        return json.dumps(self.document(name), separators=(",", ":"))

    def parsed(self, name: str) -> avro.schema.Schema:
        if name not in self._parsed:
            self._parsed[name] = avro.schema.parse(self.text(name))
        return self._parsed[name]

    def _expand(self, node: Any, defined: Set[str]) -> Any:
        if isinstance(node, str):
            short = node.rsplit(".", 1)[-1]
            if short in self._files and short not in defined:
                return self._expand(self._files[short], defined)
            return node
        if isinstance(node, list):
            return [self._expand(branch, defined) for branch in node]
        if not isinstance(node, dict):
            return node
        kind = node.get("type")
        out = dict(node)
        if kind in _NAMED:
            defined.add(node["name"])
            if kind == "record":
                out["fields"] = [dict(f, type=self._expand(f["type"], defined)) for f in node["fields"]]
        elif kind == "array":
            out["items"] = self._expand(node["items"], defined)
        elif kind == "map":
            out["values"] = self._expand(node["values"], defined)
        else:
            out["type"] = self._expand(kind, defined)
        return out
