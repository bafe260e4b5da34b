# triton.compiler: the errors a script may catch, and the type of a compiled kernel.

from .._bridge import CompilationError, OutOfResources  # noqa: F401  (triton.compiler.OutOfResources: Triton 2's spelling, GPTQ-for-LLaMa's autotuner catches it)
from .._jit import CompiledKernel  # noqa: F401  (what kernel.warmup(…) gives; unsloth's moe/grouped_gemm/interface.py names it in an annotation at import)
from . import errors  # noqa: F401,E402  (triton.compiler.errors.CompilationError, as Triton's tests catch it)
from . import compiler  # noqa: F401,E402  (AttrsDescriptor, which torch.compile's generated kernels of Triton 3.0–3.2 name)
