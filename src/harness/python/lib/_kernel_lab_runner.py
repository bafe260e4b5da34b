# Runs a learner's script as `python FILE.py` would: a fresh __main__, its own file name in every
# frame, and on an exception a traceback that shows only the user's frames — the script's and those
# of the modules beside it that it imports, under the names the main thread gives their files
# (Kernel Lab's modules are an implementation detail) — returned as JSON for the main thread.

import json
import os
import linecache
import sys
import traceback
import warnings

import _kernel_lab_state as state

# Kernel Lab's torch and triton, imported while the thread starts (the main thread is opening the
# GPU meanwhile) rather than by the first script's first lines.
import torch  # noqa: F401,E402
import triton  # noqa: F401,E402
import triton.language  # noqa: F401,E402
import triton.testing  # noqa: F401,E402
from triton import _bridge  # noqa: E402

import _kernel_lab_imports  # noqa: E402

state.notify = _bridge.notify

LIB_DIR = "/kernel_lab/lib"


def _user_frames(stack, file_name):
    frames = []
    for f in stack:
        if f.filename in _kernel_lab_imports.shown:
            # Its source lines were read (under the local path) when the summary was made.
            f.filename = _kernel_lab_imports.shown[f.filename][1]
        elif f.filename != file_name:
            continue
        frames.append(f)
    return frames


_kernel_lab_imports.install()

_format_warning = warnings.formatwarning


def _format_user_warning(message, category, filename, lineno, line=None):
    """A warning raised in a module beside the script (ColossalAI's `warnings.warn(…)` in no_pad_rotary_embedding.py)
    names the module's file as the main thread does, as its traceback frames do, not this run's copy of it."""
    if filename in _kernel_lab_imports.shown:
        if line is None:
            line = linecache.getline(filename, lineno)
        filename = _kernel_lab_imports.shown[filename][1]
    return _format_warning(message, category, filename, lineno, line)


warnings.formatwarning = _format_user_warning

# sys.path as Kernel Lab set it: a script that changes it changes it for its own run only.
_SYS_PATH = list(sys.path)


# Pyodide's own os.environ (HOME=/home/pyodide, PATH, …), which each run starts from.
_PYODIDE_ENVIRON = dict(os.environ)
# Host variables naming places in the host's file system, which the script's (Pyodide's) file system doesn't have:
# Pyodide's own values stay (so os.path.expanduser("~") and tempfile keep working). Compared upper-cased, as Windows
# names them in any case (`Path`, `UserProfile`); its own names for the home and data folders are among them.
_HOST_PATHS = {"HOME", "PWD", "OLDPWD", "TMPDIR", "TMP", "TEMP", "PATH", "PYTHONPATH", "PYTHONHOME",
               "USERPROFILE", "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA"}


def _set_environ(environ_json):
    """The script's os.environ: Pyodide's, plus the host's variables (`FOO=1 kernel-lab run x.py`; none in a browser),
    but those naming host paths; a previous run's are gone."""
    passed = json.loads(environ_json) if environ_json else {}
    os.environ.clear()
    os.environ.update(_PYODIDE_ENVIRON)
    os.environ.update({k: v for k, v in passed.items() if k.upper() not in _HOST_PATHS})


def run_script(file_path, display_name, text, bench, cpu, environ_json=None):
    state.reset(display_name, bench, bool(cpu))
    _set_environ(environ_json)
    sys.path[:] = _SYS_PATH
    _kernel_lab_imports.reset()
    # No package, as for `python FILE.py`: a relative import in the script is Python's ImportError.
    main = {"__name__": "__main__", "__file__": file_path, "__builtins__": __builtins__, "__package__": None, "__spec__": None}
    sys.argv = [file_path]
    # Tracebacks show the script's lines, as for a file Python read itself.
    linecache.cache[display_name] = (len(text), None, text.splitlines(True), display_name)
    try:
        code = compile(text, display_name, "exec")
        exec(code, main)
    except SystemExit as stop:
        if stop.code in (None, 0):
            return None
        return json.dumps({"traceback": f"SystemExit: {stop.code}\n", "line": None, "type": "SystemExit"})
    except BaseException as err:  # everything the script raises is reported, none escapes
        return _failure(err, display_name)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return None


def _failure(err, display_name):
    summary = traceback.TracebackException.from_exception(err)
    frames = _user_frames(summary.stack, display_name)
    own = [f for f in frames if f.filename == display_name]
    line = own[-1].lineno if own else None
    if isinstance(err, SyntaxError) and err.filename == display_name:
        line = err.lineno
    summary.stack = traceback.StackSummary.from_list(frames)
    text = "".join(summary.format())
    return json.dumps({
        "traceback": text,
        "line": line,
        "type": type(err).__name__,
        **({"launchError": err.kernel_lab_kind} if hasattr(err, "kernel_lab_kind") else {}),
    })
