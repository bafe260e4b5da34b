# `import mod` / `from pkg.mod import helper` of a Python file beside the script, as `python FILE.py`
# finds it on sys.path[0]. Pyodide's file system doesn't hold the script's folder, so a name no other
# finder knows is asked of the main thread (a "module-source" request: it reads FOLDER/pkg/mod.py or
# FOLDER/pkg/mod/__init__.py), written into a folder of this run, and imported from there as usual.
# The file's name as the main thread shows it is kept, so a kernel compiled from it names that file.
# A folder beside the script without __init__.py is a namespace package, as in CPython 3: an empty
# folder of the same name here, which Python's own path finder makes one of, its modules asked for
# as they are imported. A folder the script puts on sys.path itself (`sys.path.insert(0,
# os.path.dirname(os.path.dirname(__file__)))`, a host path Pyodide's file system hasn't) is asked of
# the main thread too, after the script's folder, in sys.path's order; a package found there has its
# submodules asked of the same folder.

import importlib
import importlib.machinery
import os
import shutil
import sys

import _kernel_lab_state as state

USER_DIR = "/kernel_lab/user"

# Pyodide path → (module name, the file as the main thread names it).
shown = {}

# sys.path as a run starts (Pyodide's own folders); a top-level name → the sys.path folder the script added that it came from.
_base_path = []
_root_of = {}


def _added_roots():
    """The host folders the script put on sys.path: absolute paths (POSIX or Windows) not among Pyodide's own."""
    return [p for p in sys.path if isinstance(p, str) and p not in _base_path and p != USER_DIR
            and (p.startswith("/") or (len(p) > 2 and p[1] == ":" and p[2] in "\\/"))]


class _BesideScript:
    """A meta path finder, last on sys.meta_path: only a name nothing else found reaches it."""

    def find_spec(self, fullname, path=None, target=None):
        from triton import _bridge
        relative = fullname.replace(".", "/")
        top = fullname.split(".")[0]
        if top in _root_of:
            roots = [_root_of[top]]
        else:
            roots = [None] if "." in fullname else [None, *_added_roots()]
        found = None
        for root in roots:
            found = _bridge.call({"kind": "module-source", "module": fullname, **({"root": root} if root else {})})
            if found:
                if root and "." not in fullname:
                    _root_of[top] = root
                break
        if not found:
            return None
        state.user_modules.add(fullname)
        if found.get("namespace"):
            os.makedirs(f"{USER_DIR}/{relative}", exist_ok=True)
            importlib.invalidate_caches()
            spec = importlib.machinery.PathFinder.find_spec(fullname, path if path is not None else [USER_DIR], target)
            if spec is None and path is not None:
                # A folder without __init__.py in a package object the script registered itself (below): its folder
                # in this run's copy (tritonbench's operators/sum/ under a stand-in for tritonbench.operators).
                spec = importlib.machinery.PathFinder.find_spec(fullname, [os.path.dirname(f"{USER_DIR}/{relative}")], target)
            return spec
        local = f"{USER_DIR}/{relative}/__init__.py" if found["package"] else f"{USER_DIR}/{relative}.py"
        os.makedirs(os.path.dirname(local), exist_ok=True)
        with open(local, "w") as f:
            f.write(found["text"])
        # A package's data files (launch.ts ModuleSource.data), where its code finds them: beside its modules.
        # Each is asked for on its own (a reply holds 1 MiB at most); a text file only (one that isn't UTF-8 isn't written).
        for data in found.get("data") or ():
            try:
                item = _bridge.call({"kind": "module-source", "module": fullname, "data": data, **({"root": _root_of[top]} if top in _root_of else {})})
            except _bridge.KernelLabError:  # its reply past 1 MiB (a file of JSON-escaped text): left out, as a larger file is
                continue
            if not item or "\ufffd" in item["text"]:
                continue
            target = f"{USER_DIR}/{relative}/{data}"
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as f:
                f.write(item["text"])
        shown[local] = (fullname, found["file"])
        importlib.invalidate_caches()
        spec = importlib.machinery.PathFinder.find_spec(fullname, path if path is not None else [USER_DIR], target)
        if spec is None and path is not None:
            # A package object the script registered itself, its __path__ the folder beside the script as the script's
            # __file__ names it (a driver's stand-in for a package whose __init__ can't run: the module
            # object in sys.modules, `m.__path__ = [os.path.join(os.path.dirname(__file__), "pkg")]`): that folder
            # isn't in Pyodide's file system; the module was written into this run's copy of it.
            here = os.path.dirname(local) if not found["package"] else os.path.dirname(os.path.dirname(local))
            spec = importlib.machinery.PathFinder.find_spec(fullname, [here], target)
        return spec


def reset():
    """A new run: the last run's modules and files go (the files may have changed since)."""
    for name in [m for m in sys.modules if m in state.user_modules]:
        del sys.modules[name]
    state.user_modules.clear()
    shown.clear()
    _root_of.clear()
    _base_path[:] = sys.path
    shutil.rmtree(USER_DIR, ignore_errors=True)
    os.makedirs(USER_DIR, exist_ok=True)
    importlib.invalidate_caches()


def install():
    if not any(isinstance(f, _BesideScript) for f in sys.meta_path):
        sys.meta_path.append(_BesideScript())
    if USER_DIR not in sys.path:
        sys.path.append(USER_DIR)
