# Package marker; aiter's ops/triton/__init__.py imports its quant and comms (iris) packages and sets up lazy module aliases.
