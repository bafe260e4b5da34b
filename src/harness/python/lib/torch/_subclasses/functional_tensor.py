# torch._subclasses.functional_tensor: FunctionalTensorMode is the mode torch.compile's functionalization
# runs a custom op under. Nothing is traced here, so no op ever runs in it: a library names the class
# only to register a rule for it (`op.register_torch_dispatch(FunctionalTensorMode, rule)`), kept unused.


class FunctionalTensorMode:
    def __init__(self, *args, **kwargs):
        from .._not_implemented import not_implemented
        not_implemented("torch._subclasses.functional_tensor.FunctionalTensorMode() (functionalization, which only torch.compile's tracing needs)")


from .._not_implemented import missing_in as _missing_in  # noqa: E402

__getattr__ = _missing_in("torch._subclasses.functional_tensor")
