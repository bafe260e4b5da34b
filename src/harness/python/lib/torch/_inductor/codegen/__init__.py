# torch._inductor.codegen: only the two names output code imports (memory_planning._align,
# multi_kernel.MultiKernelCall); inductor's code generators aren't here.
