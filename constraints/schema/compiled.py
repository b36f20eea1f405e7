"""The file models' validators, kept between runs like Python's own `.pyc` files, and run
without pydantic.

Building a model's validator is most of what pydantic costs a command that reads a file
(benchmarks/README.md, "Start-up with the models deciding"): importing pydantic, defining
the model classes, generating the core schema in Python and loading pydantic's plugin
machinery (`importlib.metadata`).  The core schema a model generates is plain data: dicts,
the model classes and the check functions.  It is written once to
`constraints/schema/__pycache__/` with each model class replaced by a record class of the same
name (`constraints.schema.records`) and each check by its stand-in in
`constraints.schema.checks` (the same function the model calls), and read back by the next
run into a pydantic-core validator: reading a file then imports pydantic-core and the checks,
never pydantic.  The validator gives the model's own errors (tests/constraints/schema/
test_compiled.py), and records of the model's fields, which the readers turn into the
rulebook's values.  The file is named by a hash of the models' source, pydantic-core and
Python: a model edited, or pydantic upgraded, is built anew.  A folder that cannot be
written only means the validator is built each run; a schema that cannot be stood in for
(a check without a stand-in) is validated by the model itself.  The stored files are
pickles, trusted as Python trusts the `.pyc` files beside them: whoever can write the
package's folder can change its code anyway.
"""

from __future__ import annotations

import os
import pickle
import sys
import zlib
from functools import partial
from pathlib import Path
from types import FunctionType, MethodType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

HERE = Path(__file__).resolve().parent
CACHE = HERE / "__pycache__"
# What the generated schemas depend on: the models, and the bounds they import.
SOURCES = (*sorted(HERE.glob("*.py")), HERE.parent / "core" / "jsonread.py")
# Parts of a core schema validation never reads (pydantic's JSON Schema hooks and the
# serializers): left out of the stored copy, they hold pydantic's own closures.
UNUSED = frozenset({"metadata", "serialization"})

_KEY: list[str] = []


def validator(name: str) -> Any:
    """A pydantic-core `SchemaValidator` of the model `name` ("module:Class" in
    `constraints.schema`: a file or a result model, or a union of them), from its kept schema
    when there is a current one."""
    from pydantic_core import SchemaValidator

    path = CACHE / f"{name.replace(':', '.')}.{key()}.core.pickle"
    schema = _stored(path)
    if schema is None:
        schema = _light(name)
        if schema is None:  # validated by the model itself
            return _model_validator(name)
        _store(path, schema)
    return SchemaValidator(schema)


def model_of(name: str) -> Any:
    """The model class (or union of them) `name` names."""
    from importlib import import_module

    module, _, attribute = name.partition(":")
    return getattr(import_module(f"constraints.schema.{module}"), attribute)


def _core_schema(name: str) -> Any:
    from pydantic import BaseModel, TypeAdapter

    model = model_of(name)
    if isinstance(model, type) and issubclass(model, BaseModel):
        model.model_rebuild()
        return model.__pydantic_core_schema__
    return TypeAdapter(model).core_schema


def _model_validator(name: str) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(model_of(name)).validator


def _light(name: str) -> Any:
    """The core schema of the model `name` with records for its classes and stand-ins for its
    checks; None when some part cannot be stood in for."""
    try:
        light = _stand_in(_core_schema(name))
        data = pickle.dumps(light, protocol=pickle.HIGHEST_PROTOCOL)
    except (LookupError, TypeError, pickle.PicklingError, AttributeError):
        return None
    if b"pydantic." in data or b"constraints.schema.common" in data:  # not stood in for
        return None
    return light


def _stand_in(schema: Any) -> Any:
    """`schema` without the parts validation does not read, each model class as a record and
    each check as its stand-in (LookupError: a check without one)."""
    from pydantic import BaseModel

    if isinstance(schema, dict):
        return {k: _stand_in(v) for k, v in schema.items() if k not in UNUSED}
    if isinstance(schema, list):
        return [_stand_in(v) for v in schema]
    if isinstance(schema, tuple):
        return tuple(_stand_in(v) for v in schema)
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        from constraints.schema import records

        return getattr(records, schema.__name__)
    if isinstance(schema, FunctionType | MethodType | partial):
        return _check(schema)
    return schema


def _check(function: Any) -> Any:
    from constraints.schema import checks
    from constraints.schema.common import null_words

    if isinstance(function, partial):
        if function.func.__name__ == "min_length_validator":
            return partial(checks.min_length, *function.args, **function.keywords)
        raise LookupError(function)
    if getattr(function, "__module__", "") == checks.__name__:
        return function
    name = getattr(getattr(function, "__func__", function), "__qualname__", "")
    if name == "FileModel._no_null":
        return partial(checks.no_null, null_words(function.__self__))
    return checks.STAND_INS[name]


def key() -> str:
    """The checksum naming the stored schemas: the models' source, pydantic-core, Python."""
    if not _KEY:
        import pydantic_core

        # CRC-32 (zlib, light to import) of each part: a cache name, not a security check.
        parts = [f"{pydantic_core.__version__} {sys.version}".encode()]
        parts += [source.read_bytes() for source in SOURCES]
        _KEY.append(f"{zlib.crc32(parts[0]):08x}{zlib.crc32(b''.join(parts)):08x}")
    return _KEY[0]


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
        import tempfile  # only when writing (a run that reads imports less)

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
