"""What Kernel Lab's torch lacks stops the script with NotImplementedError naming it and pointing to
the README's list (never a stand-in's wrong answer), and is an AttributeError too, so a library's
`hasattr` probe sees it missing as on a torch without it."""

import torch
import torch.nn.functional as F

x = torch.rand(7, 5)
missing = [
    ("torch.Tensor.repeat", lambda: x.repeat(2, 1)),
    ("torch.Tensor.scatter_", lambda: x.scatter_),
    ("torch.fft", lambda: torch.fft),
    ("torch.nn.functional.conv2d", lambda: F.conv2d),
]
for name, use in missing:
    try:
        use()
    except NotImplementedError as e:
        message = str(e)
        assert message.startswith(f"{name} is not in Kernel Lab's torch"), message
        assert "README" in message, message
        assert isinstance(e, AttributeError)
    else:
        raise AssertionError(f"{name} did not raise")
assert not hasattr(x, "repeat") and not hasattr(torch, "fft")
assert hasattr(x, "shape") and hasattr(x, "sum")
try:
    x._not_an_attribute
except AttributeError as e:
    assert not isinstance(e, NotImplementedError), "a private name is a plain AttributeError"
print("outside the subset: NotImplementedError, named")
