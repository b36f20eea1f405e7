"""The file models' validators, kept between runs like Python's own `.pyc` files.

Building a model's validator is most of what pydantic costs a command that reads a file
(benchmarks/README.md, "Start-up with the models deciding"): generating its core schema in
Python, and loading pydantic's plugin machinery (`importlib.metadata`) on the way.  The core
schema a model generates is plain data (dicts, and references to the models' classes and
check functions), so it is written once to `constraints/schema/__pycache__/` and read back by
the next run, which then builds the validator directly in pydantic-core (well under a
millisecond).  The file is named by a hash of the models' source, the pydantic-core and the
Python versions: a model edited, or pydantic upgraded, is built anew.  A folder that cannot
be written only means the validator is built each run.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

HERE = Path(__file__).resolve().parent
CACHE = HERE / "__pycache__"
# What the generated schemas depend on: the models, and the bounds they import.
SOURCES = (*sorted(HERE.glob("*.py")), HERE.parent / "core" / "jsonread.py")
# Parts of a core schema validation never reads (pydantic's JSON Schema hooks and the
# serializers): left out of the stored copy, they hold pydantic's own closures.
UNUSED = frozenset({"metadata", "serialization"})

_KEY: list[str] = []


def validator(model: type[BaseModel]) -> Any:
    """A pydantic-core `SchemaValidator` of the model class `model`, as pydantic builds it,
    from the stored core schema when there is a current one."""
    from pydantic_core import SchemaValidator

    path = CACHE / f"{model.__module__}.{model.__qualname__}.{key()}.core.pickle"
    schema = _stored(path)
    if schema is None:
        model.model_rebuild()
        schema = _plain(model.__pydantic_core_schema__)
        _store(path, schema)
    return SchemaValidator(schema)


def key() -> str:
    """The hash naming the stored schemas: the models' source, pydantic-core, Python."""
    if not _KEY:
        import pydantic_core

        digest = hashlib.sha256(f"{pydantic_core.__version__} {sys.version}".encode())
        for source in SOURCES:
            digest.update(source.read_bytes())
        _KEY.append(digest.hexdigest()[:16])
    return _KEY[0]


def _plain(schema: Any) -> Any:
    """`schema` without the parts validation does not read."""
    if isinstance(schema, dict):
        return {k: _plain(v) for k, v in schema.items() if k not in UNUSED}
    if isinstance(schema, list):
        return [_plain(v) for v in schema]
    if isinstance(schema, tuple):
        return tuple(_plain(v) for v in schema)
    return schema


def _stored(path: Path) -> Any:
    try:
        with open(path, "rb") as handle:
            return pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a damaged or foreign file: build the schema anew
        return None


def _store(path: Path, schema: Any) -> None:
    """Write `schema` to `path` whole or not at all (another process may read it now), and
    drop the model's stale copies."""
    try:
        data = pickle.dumps(schema, protocol=pickle.HIGHEST_PROTOCOL)
        CACHE.mkdir(exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=CACHE, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        finally:
            Path(temporary).unlink(missing_ok=True)
        model = path.name.rsplit(".", 3)[0]
        for stale in CACHE.glob(f"{model}.*.core.pickle"):
            if stale != path:
                stale.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, AttributeError, TypeError):
        pass  # a read-only install: the validator is built each run
