"""Writing a picture whole or not at all.

The picture goes to a temporary file beside the target, which is renamed into place once
written: a failure (a missing or read-only folder, a name too long, a full disk) leaves no
partial file, and the error names the output and the problem on one line.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from constraints.errors import InvalidInputError

SUFFIXES = (".png", ".svg")
OPTION = "--output"  # how the command line names the output, in errors


def check_output(path: str | Path) -> Path:
    """`path` as an output picture: a .png or .svg name in an existing folder, not a folder.

    Parameters
    ----------
    path : str or Path
        Where the picture will go.

    Returns
    -------
    Path

    Raises
    ------
    InvalidInputError
        The name does not end in .png or .svg, names a folder, or its folder is missing.
    """
    if not isinstance(path, str | os.PathLike) or not str(path):
        raise InvalidInputError("expected a file name ending in .png or .svg", path=OPTION)
    out = Path(path)
    source = str(path)
    try:
        if out.is_dir():
            raise InvalidInputError("output is a folder, not a file", path=OPTION,
                                    source=source)
        if out.suffix.lower() not in SUFFIXES:
            raise InvalidInputError("output must end in .png or .svg", path=OPTION,
                                    source=source)
        if not out.parent.is_dir():
            raise InvalidInputError("cannot write: no such folder", path=OPTION,
                                    source=source)
    except OSError as exc:  # a name too long to look up, say
        raise _cannot_write(out, exc) from None
    return out


def write_atomically(path: str | Path, write: Callable[[BinaryIO], None]) -> None:
    """Call `write` on a temporary file in `path`'s folder, then rename it to `path`.

    Raises
    ------
    InvalidInputError
        The file cannot be created, written or renamed (nothing is left behind).
    """
    out = check_output(path)
    try:
        # A short name of our own: the target's name may be at the length limit itself.
        handle, temporary = tempfile.mkstemp(prefix=".manoeuvre-", suffix=out.suffix,
                                             dir=out.parent)
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.chmod(temporary, 0o666 & ~_umask())  # as an ordinary new file, not 0600
        os.replace(temporary, out)
    except OSError as exc:
        raise _cannot_write(out, exc) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _cannot_write(out: Path, exc: OSError) -> InvalidInputError:
    return InvalidInputError(f"cannot write: {exc.strerror or exc}", path=OPTION,
                             source=str(out))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
