"""mobiusml/gemlite's package layout, in code of ours: a dtype table naming every torch dtype at import (dtypes.py),
and tuned configs shipped as JSON beside the modules, found at import with os.listdir of the package's own folder
(core.py's get_default_cache_config)."""

import json
import os

from .dtypes import DTYPE_TO_TORCH, TORCH_DTYPE_TO_TRITON

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "configs/")
TAGS = sorted(f.split(".")[0] for f in os.listdir(ROOT))
with open(os.path.join(ROOT, TAGS[0] + ".json")) as f:
    CONFIG = json.load(f)
