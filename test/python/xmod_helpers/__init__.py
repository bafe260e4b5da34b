# A package of @triton.jit helpers beside the scripts that import them (xmod-kernels.py), in the
# style of FlagGems' flag_gems.utils: the kernels call them across modules.
