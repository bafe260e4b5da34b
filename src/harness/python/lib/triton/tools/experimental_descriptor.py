# triton.tools.experimental_descriptor: Triton 3.2's TMA descriptors filled on the host
# (create_1d_tma_descriptor / create_2d_tma_descriptor, read by tl._experimental_descriptor_load).
# Older copies of tutorials 06 and 09 import it and use it only on CUDA with compute capability 9,
# which Kernel Lab isn't, so the import succeeds and the functions say what to use instead.


def _replaced(name):
    def refused(*args, **kwargs):
        raise NotImplementedError(
            f"triton.tools.experimental_descriptor.{name} fills an NVIDIA TMA descriptor's bytes, which WebGPU has no use for; "
            "Triton replaced it with triton.tools.tensor_descriptor.TensorDescriptor, which Kernel Lab runs (README: Triton in Python)")
    refused.__name__ = name
    return refused


create_1d_tma_descriptor = _replaced("create_1d_tma_descriptor")
create_2d_tma_descriptor = _replaced("create_2d_tma_descriptor")
