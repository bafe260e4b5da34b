import triton
import triton.language as tl


class RowSum:
    @staticmethod
    @triton.jit
    def forward(input_ptr: tl.tensor, y_size: tl.int32, x_size: tl.int32, y_stride: tl.int32, y_offset: tl.int32,
                x_block_size: tl.constexpr):
        block = tl.make_block_ptr(input_ptr, shape=(y_size, x_size), strides=(y_stride, 1), offsets=(y_offset, 0),
                                  block_shape=(1, x_block_size), order=(1, 0))
        acc = tl.zeros((1, x_block_size), tl.float32)
        for _ in range(0, x_size, x_block_size):
            acc += tl.load(block, boundary_check=(1,), padding_option="zero")
            block = tl.advance(block, (0, x_block_size))
        return RowSum.finish(acc)

    @staticmethod
    @triton.jit
    def finish(acc):
        return tl.sum(acc, 1)
