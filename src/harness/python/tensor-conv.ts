// torch.nn.functional.conv2d on the CPU (tensor-ops.ts's `conv2d`; lib/torch/nn/_conv.py checks the
// arguments and works out the output's size): each output element summed in double precision and
// rounded once to the result's dtype, so it is the reference a kernel's float32 sums are compared
// with. Python hands over contiguous operands. Runs on the Python thread (no Node API).

import type { TensorDtype, TensorStorage } from "./protocol";
import { allocate, reader, writer } from "./tensor-storage";

/** A contiguous operand: its storage, dtype and first element. */
export interface Packed {
  data: TensorStorage;
  dtype: TensorDtype;
  offset: number;
}

/** The convolution's sizes as Python worked them out (padding is the top and left padding: the bottom and right only shape the output). */
export interface Conv2dShape {
  batch: number;
  channels: number;
  height: number;
  width: number;
  outChannels: number;
  kernelHeight: number;
  kernelWidth: number;
  outHeight: number;
  outWidth: number;
  strideH: number;
  strideW: number;
  padTop: number;
  padLeft: number;
  dilationH: number;
  dilationW: number;
  groups: number;
}

function floats(x: Packed, n: number): Float64Array {
  const read = reader(x.dtype);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = read(x.data, x.offset + i);
  return out;
}

/** input [N, C, H, W] ⋆ weight [O, C / groups, KH, KW] (+ bias [O]) → [N, O, OH, OW] of `dtype`. */
export function conv2d(input: Packed, weight: Packed, bias: Packed | undefined, shape: Conv2dShape, dtype: TensorDtype): TensorStorage {
  const s = shape;
  const perGroupIn = s.channels / s.groups;
  const perGroupOut = s.outChannels / s.groups;
  const x = floats(input, s.batch * s.channels * s.height * s.width);
  const w = floats(weight, s.outChannels * perGroupIn * s.kernelHeight * s.kernelWidth);
  const b = bias ? floats(bias, s.outChannels) : undefined;
  const out = allocate(dtype, s.batch * s.outChannels * s.outHeight * s.outWidth);
  const write = writer(dtype);
  let at = 0;
  for (let n = 0; n < s.batch; n++) {
    for (let o = 0; o < s.outChannels; o++) {
      const firstIn = Math.floor(o / perGroupOut) * perGroupIn;
      for (let oh = 0; oh < s.outHeight; oh++) {
        for (let ow = 0; ow < s.outWidth; ow++) {
          let sum = b ? b[o] : 0;
          for (let c = 0; c < perGroupIn; c++) {
            const plane = (n * s.channels + firstIn + c) * s.height;
            const taps = (o * perGroupIn + c) * s.kernelHeight;
            for (let kh = 0; kh < s.kernelHeight; kh++) {
              const ih = oh * s.strideH - s.padTop + kh * s.dilationH;
              if (ih < 0 || ih >= s.height) continue;
              for (let kw = 0; kw < s.kernelWidth; kw++) {
                const iw = ow * s.strideW - s.padLeft + kw * s.dilationW;
                if (iw < 0 || iw >= s.width) continue;
                sum += x[(plane + ih) * s.width + iw] * w[(taps + kh) * s.kernelWidth + kw];
              }
            }
          }
          write(out, at++, sum);
        }
      }
    }
  }
  return out;
}
