# triton.compiler.compiler: AttrsDescriptor, the argument facts (16-byte alignment, equal to 1) Triton 3.0–3.2
# specialised a kernel on. TorchInductor's generated kernels of those years name it in their triton_meta
# (`AttrsDescriptor(divisible_by_16=(0, 1), equal_to_1=())`, `AttrsDescriptor.from_dict({...})`); Kernel Lab
# specialises on the arguments it is given (an int equal to 1, as Triton) and keeps these only to be read.


class AttrsDescriptor:
    def __init__(self, divisible_by_16=None, equal_to_1=None, **properties):
        self.divisible_by_16 = tuple(divisible_by_16 or ())
        self.equal_to_1 = tuple(equal_to_1 or ())
        self.properties = properties

    @staticmethod
    def from_dict(data):
        props = dict(data.get("arg_properties", {}))
        return AttrsDescriptor(props.pop("tt.divisibility", ()), props.pop("tt.equal_to", ()), **props)

    def __repr__(self):
        return f"AttrsDescriptor(divisible_by_16={self.divisible_by_16}, equal_to_1={self.equal_to_1})"
