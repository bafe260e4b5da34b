# torch.distributed.tensor.parallel: ParallelStyle as the base class a library's tensor-parallel
# style derives from (fla's NormParallel); applying one (parallelize_module) is refused.


class ParallelStyle:
    def _apply(self, module, device_mesh):
        raise NotImplementedError("torch.distributed.tensor.parallel is not in Kernel Lab's torch: one GPU, no process group")


def parallelize_module(module, device_mesh=None, parallelize_plan=None, **kwargs):
    raise NotImplementedError("torch.distributed.tensor.parallel.parallelize_module is not in Kernel Lab's torch: one GPU, no process group")
