#!/bin/bash
# The table of record for issue 20 after divisibility (bench/NOTES.md §20): two commands on one
# warm H200 lease, 2026-12-04 (device clock 12:22–12:28 UTC), with no flags set by the user.
# Here:   ../shared/tools/gpu-carry.sh && node scripts/build.mjs && node bench/build.mjs && bash bench/carry-f16.sh .kl-h200
# There:  . .gpu/enter.sh; cd .kl-h200 && bash bench/run-h200-f16.sh f16                    (run-f16.log, kl-f16.json)
#         . .gpu/enter.sh; cd .kl-h200 && bash bench/run-h200-f16.sh torch f32 probe cli    (run-torch-f32-probe-cli.log, torch.json, kl-f32.json, probe.json)
# aborted-first-attempt.log: the same f16 step a minute earlier, stopped by a config index past
# the end of the suite's list (fixed); its rows agree with the record's.
