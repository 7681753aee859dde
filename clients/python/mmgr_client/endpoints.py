"""Where a scorer started with ``bin/mmgr run`` listens: it writes ``<data-dir>/endpoints.properties``
(Java properties: ``bootstrap.servers``, ``schema.registry.url``, ``topic.prefix``), as ``bin/mmgr publish`` reads it."""
from __future__ import annotations

import os
import pathlib
from typing import Dict

from .errors import MmgrError

DEFAULT = pathlib.Path(".mmgr") / "endpoints.properties"


def read_endpoints(path: "os.PathLike[str] | str" = DEFAULT) -> Dict[str, str]:
    """``{"bootstrap_servers", "schema_registry_url", "topic_prefix"}``: keyword arguments of :class:`Evaluator`."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise MmgrError("no %s: start the scorer with bin/mmgr run (it writes the file into its --data-dir), or give "
                        "the bootstrap servers and the registry URL" % path)
    props = {}
    with open(path, encoding="latin-1") as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#!" or "=" not in line:
                continue
            key, value = line.split("=", 1)
            # Properties.store escapes ':' '=' '#' '!' and spaces with a backslash
            props[key.strip()] = _unescape(value.strip())
    try:
        return {"bootstrap_servers": props["bootstrap.servers"], "schema_registry_url": props["schema.registry.url"],
                "topic_prefix": props.get("topic.prefix", "mmgr.")}
    except KeyError as e:
        raise MmgrError("%s has no %s" % (path, e.args[0])) from None


def _unescape(value: str) -> str:
    out = []
    chars = iter(value)
    for c in chars:
        if c == "\\":
            nxt = next(chars, "")
            out.append({"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(nxt, nxt))
        else:
            out.append(c)
    return "".join(out)
