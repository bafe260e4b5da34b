# triton.tools: the host-side helpers of Triton's tutorials (tensor_descriptor.py).
