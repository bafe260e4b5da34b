// Every exercise's hidden reference, by id: what the `kernel-lab` module's `exerciseReference`
// hands a run. Only the references are imported here, so the language module (bundled into the
// command line and the workers) carries no exercise texts.

import type { ExerciseReference } from "./exercise";
import { reference as puzzle01 } from "./puzzle-01-constant-add";
import { reference as puzzle02 } from "./puzzle-02-constant-add-block";
import { reference as puzzle03 } from "./puzzle-03-outer-vector-add";
import { reference as puzzle04 } from "./puzzle-04-outer-vector-add-block";
import { reference as puzzle05 } from "./puzzle-05-fused-outer-mul";
import { reference as puzzle06 } from "./puzzle-06-fused-outer-mul-backward";
import { reference as puzzle07 } from "./puzzle-07-long-sum";
import { reference as puzzle08 } from "./puzzle-08-long-softmax";
import { reference as puzzle09 } from "./puzzle-09-simple-flash-attention";
import { reference as puzzle10 } from "./puzzle-10-conv2d";
import { reference as puzzle11 } from "./puzzle-11-matmul";
import { reference as puzzle12 } from "./puzzle-12-quantized-matmul";
import { reference as tutorial01 } from "./tutorial-01-vector-add";
import { reference as tutorial02 } from "./tutorial-02-fused-softmax";
import { reference as tutorial03 } from "./tutorial-03-matmul";
import { reference as tutorial04 } from "./tutorial-04-dropout";
import { reference as tutorial05 } from "./tutorial-05-layer-norm";
import { reference as tutorial06 } from "./tutorial-06-fused-attention";

export const EXERCISE_REFERENCES: Readonly<Record<string, ExerciseReference>> = {
  "puzzle-01": puzzle01,
  "puzzle-02": puzzle02,
  "puzzle-03": puzzle03,
  "puzzle-04": puzzle04,
  "puzzle-05": puzzle05,
  "puzzle-06": puzzle06,
  "puzzle-07": puzzle07,
  "puzzle-08": puzzle08,
  "puzzle-09": puzzle09,
  "puzzle-10": puzzle10,
  "puzzle-11": puzzle11,
  "puzzle-12": puzzle12,
  "tutorial-01": tutorial01,
  "tutorial-02": tutorial02,
  "tutorial-03": tutorial03,
  "tutorial-04": tutorial04,
  "tutorial-05": tutorial05,
  "tutorial-06": tutorial06,
};
