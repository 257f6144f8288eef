"""Finding and loading libotvar.so and libotvar_woff.so (docs/python.md, "Library lookup").

The first candidate that loads wins, in this order:
  1. the environment variable ($OTVAR_LIBRARY, $OTVAR_WOFF_LIBRARY): a full path, and the only
     candidate when set, so that a test run never silently picks up another build;
  2. for the WOFF codec only, the directory the core library was loaded from (the two are built
     and installed side by side);
  3. a copy next to this package (otvar/libotvar.so*), e.g. placed there before `pip install`;
  4. the build trees of the source checkout this package sits in (../build*/ from python/),
     newest first, skipping sanitizer builds (see _INSTRUMENTED);
  5. the system's: ctypes.util.find_library, then the soname.
A library that loads but lacks a function the package needs (an older build) is skipped too.
"""

import ctypes
import ctypes.util
import os
import pathlib

from ._errors import Error

SOVERSION = 0
_PACKAGE_DIR = pathlib.Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE_DIR.parent.parent
# An ASan/TSan/MSan-instrumented library aborts a process whose first loaded library is not its
# runtime (Python's is not): such builds load only with LD_PRELOAD, so the fallback search
# skips them instead of killing the interpreter. Their dynamic symbol tables name these.
_INSTRUMENTED = (b"__asan_", b"__tsan_", b"__msan_")


def _instrumented(path):
    """True when the shared library at path was built with a sanitizer that needs preloading."""
    data = path.read_bytes()
    return any(mark in data for mark in _INSTRUMENTED)


def _package_copies(stem):
    """Libraries copied into the package directory (libotvar.so, libotvar.so.0, ...)."""
    return sorted(str(p) for p in _PACKAGE_DIR.glob(stem + ".so*"))


def _build_tree_copies(stem):
    """Libraries in ../build*/ of a source checkout, the most recently built first."""
    if not (_CHECKOUT / "include" / "otvar.h").is_file():
        return []
    found = [p for p in _CHECKOUT.glob("build*/" + stem + ".so") if p.is_file()]
    found.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return [str(p) for p in found if not _instrumented(p)]


def _system_copies(stem):
    """What the dynamic linker would find: ldconfig's name for it, then the soname."""
    name = ctypes.util.find_library(stem[len("lib"):])
    return ([name] if name else []) + ["%s.so.%d" % (stem, SOVERSION)]


def candidates(stem, env_var, near=None):
    """The paths and names to try for library `stem` ("libotvar"), in the documented order."""
    chosen = os.environ.get(env_var)
    if chosen:
        return [chosen]
    nearby = []
    if near and os.path.isabs(near):
        folder = pathlib.Path(near).parent
        nearby = [str(folder / (stem + ".so")), str(folder / ("%s.so.%d" % (stem, SOVERSION)))]
    return nearby + _package_copies(stem) + _build_tree_copies(stem) + _system_copies(stem)


def load(stem, env_var, check, near=None):
    """Load the first candidate that loads and that check(lib) accepts (check returns None, or
    why not: an older build without a needed function); Error (UNSUPPORTED) listing every
    attempt when none does."""
    tried = []
    for name in candidates(stem, env_var, near):
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            tried.append(str(e))
            continue
        problem = check(lib)
        if problem is None:
            return lib, name
        tried.append("%s: %s" % (name, problem))
    raise Error("UNSUPPORTED", "cannot load %s (set $%s to its full path); tried: %s"
                % (stem, env_var, "; ".join(tried)))
