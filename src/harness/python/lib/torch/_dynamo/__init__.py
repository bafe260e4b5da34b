# torch._dynamo, TorchDynamo's older namespace: `@torch._dynamo.disable` (fla's atk/chunk_atk_fwd.py)
# is torch.compiler.disable, and nothing is being compiled (torch.compile runs eagerly here).

from ..compiler import disable, is_compiling  # noqa: F401


def allow_in_graph(fn):
    # xformers' attn_bias.py marks its mask classes for TorchDynamo; with nothing compiled, a no-op.
    return fn

# A name torch has and this module lacks: NotImplementedError naming it (README: the torch subset).
from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._dynamo")
