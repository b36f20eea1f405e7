"""The record classes of the validators kept between runs (`constraints.schema.compiled`):
one per model, of the model's name, made when first asked for (a stored validator names
them), so that reading a file needs no model class, hence no pydantic."""

from __future__ import annotations

from constraints.schema.checks import Record


def __getattr__(name: str) -> type[Record]:
    if name.startswith("__"):
        raise AttributeError(name)
    made = type(name, (Record,), {"__module__": __name__, "__qualname__": name,
                                  "__slots__": ()})
    globals()[name] = made
    return made
