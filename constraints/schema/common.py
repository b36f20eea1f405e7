"""Types every format shares (docs/formats.md): finite numbers within the sanity bounds,
printable ids, points, slots, and the two kinds of model (a file we read, a result we write).

A file is read strictly: an unknown key is an error, an integer is not a flag, a float is not
a whole number (the same rules as `constraints.core.jsonread`).  A result is what the tool
writes: also closed (a key the writer adds and the model lacks fails the tests), but its
numbers may be `Infinity` where a measurement has no finite value (Python's `json` writes it).
"""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    ValidationInfo,
    field_validator,
)

from constraints.core.jsonread import MAX_COUNT, MAX_MAGNITUDE
from constraints.schema.checks import no_null, printable

# Characters an id may not hold (jsonread's `_UNPRINTABLE`), as a JSON Schema pattern: C0 and
# C1 controls and the line and paragraph separators (a lone surrogate is not valid UTF-8).
PRINTABLE_PATTERN = "^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]+$"


def expected(annotation: Any) -> str:
    """What a value of type `annotation` is, in the readers' words ("a number", ...)."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, UnionType):
        kinds = {expected(a) for a in get_args(annotation) if a is not type(None)}
        return kinds.pop() if len(kinds) == 1 else "a value"
    origin = get_origin(annotation) or annotation
    if origin is Literal:
        return "a non-empty string" if all(isinstance(a, str) for a in get_args(annotation)) \
            else "a number"
    names = [(str, "a non-empty string"), (bool, "true or false"), (int, "a whole number"),
             (float, "a number"), (list, "an array"), (tuple, "an array"),
             (dict, "an object"), (BaseModel, "an object")]
    return next((name for kind, name in names
                 if isinstance(origin, type) and issubclass(origin, kind)), "a value")


class FileModel(BaseModel):
    """A file the tool reads: closed, strict, finite."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True,
                              defer_build=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_null(cls, value: Any, info: ValidationInfo) -> Any:
        # An optional key is left out, never null (the readers refuse null everywhere); the
        # published schema drops the null branch too (`constraints.schema.json_schema`).
        return no_null(null_words(cls), value, info)


def null_words(model: type[BaseModel]) -> dict[str, str]:
    """What each key of `model` holds, in the readers' words, for "expected X, got null"
    (a key of type Any is read past: null too)."""
    return {name: expected(field.annotation) for name, field in model.model_fields.items()
            if field.annotation is not Any}


class ResultModel(BaseModel):
    """A result the tool writes: closed; numbers may be infinite (a distance to nothing)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


Text = Annotated[str, Field(min_length=1, pattern=PRINTABLE_PATTERN),
                 AfterValidator(printable)]
"""An id or a name: non-empty printable text."""

Number = Annotated[float, Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE, allow_inf_nan=False)]
"""Any number a file gives: finite, of magnitude at most 1,000,000."""

Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
"""A whole number: not a bool, not a float."""
Files = Annotated[int, Field(ge=1, le=1000)]
"""Files of a formation (1 to 1000, MAX_MODELS)."""
Angle = Number
"""Degrees counter-clockwise from +x (a facing of 90 looks towards +y)."""
# An array read as a tuple: JSON arrays only (the models validate JSON text), but lax so that
# the values a validator hands on (Python lists) still read.
Lax = Strict(False)
Point = Annotated[tuple[Number, Number], Lax]
"""[x, y] in inches."""

Slot = Annotated[tuple[Annotated[int, Field(ge=0, le=MAX_COUNT)],
                       Annotated[int, Field(ge=0, le=MAX_COUNT)]], Lax]
"""[rank, file]: rank 0 is the front rank, file 0 the leftmost seen from behind."""

Point3 = Annotated[tuple[Number, Number,
                         Annotated[float, Field(ge=0.0, le=100.0, allow_inf_nan=False)]], Lax]
"""[x, y, level] in inches (Infinity N4; a level from 0 to 100)."""

# Results: plain floats (rounded by the writer), possibly infinite.
Real = float
XY = Annotated[tuple[float, float], Lax]
XYZ = Annotated[tuple[float, float, float], Lax]
