# triton.tools.disasm: SASS, NVIDIA's machine code, from a compiled kernel's cubin (gpu-mode's lecture 29
# vector_add.py imports get_sass at its top and prints it under `__main__`). Kernel Lab compiles to WGSL,
# which has no cubin: the import succeeds, so the module's kernels run, and the functions say where the
# generated code is.


def _refused(name):
    def refused(*args, **kwargs):
        raise NotImplementedError(
            f"triton.tools.disasm.{name} disassembles an NVIDIA cubin, which Kernel Lab doesn't make: it compiles to WGSL "
            "(`kernel-lab wgsl FILE.py --kernel NAME` prints a kernel's; README: Triton in Python)")
    refused.__name__ = name
    return refused


get_sass = _refused("get_sass")
extract = _refused("extract")
