# Package marker; aiter's ops/triton/quant/__init__.py re-exports its fused quantizers too, whose fused_mxfp4_quant.py imports gfx1250 Gluon kernels.
