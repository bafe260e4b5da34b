"""os.environ in a script run by `kernel-lab run` (bench/NOTES.md §81): the variables of the command line
(`KL_SCRIPT_FLAG=on kernel-lab run environ.py`) are there, as for `python environ.py`; those naming host folders
(HOME, PWD, TMPDIR, PATH, in any case as Windows spells them: Path, UserProfile) keep Pyodide's values, which its
file system has."""

import os
import tempfile

print(f"KL_SCRIPT_FLAG={os.environ.get('KL_SCRIPT_FLAG')}")
print(f"TRITON_INTERPRET={os.getenv('TRITON_INTERPRET', '0')}")
print(f"HOME={os.environ['HOME']} exists={os.path.isdir(os.path.expanduser('~'))}")
print(f"tempdir exists={os.path.isdir(tempfile.gettempdir())}")
print(f"Path={os.environ.get('Path')} UserProfile={os.environ.get('UserProfile')}")
