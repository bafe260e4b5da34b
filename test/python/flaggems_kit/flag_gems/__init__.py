# Kernel Lab's stand-in for FlagGems' package (flagos-ai/FlagGems at ed2508bc): its ops/ files are copied unchanged
# beside it; the package's own __init__ registers every op with torch's dispatcher, which this doesn't. `device` is
# the device name FlagGems' ops check their tensors against.
device = "cuda"
