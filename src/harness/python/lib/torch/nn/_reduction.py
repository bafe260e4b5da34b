# torch.nn._reduction: a loss's `reduction=` string as the enum loss kernels take (FlagGems'
# cross_entropy_loss launches with `_Reduction.get_enum(reduction)`), as torch numbers them.


def get_enum(reduction):
    if reduction == "none":
        return 0
    if reduction == "mean" or reduction == "elementwise_mean":
        return 1
    if reduction == "sum":
        return 2
    raise ValueError(f"{reduction} is not a valid value for reduction")
