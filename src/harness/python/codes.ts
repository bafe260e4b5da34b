// The codes of running a Python file, by name (`PythonCodes.pythonStart`). The codes and their
// meanings are diagnostics/codes.ts's PYTHON_CODES (docs/ERRORS.md).

import { PYTHON_CODES, codesOf } from "../../diagnostics/codes";

export const PythonCodes = codesOf(PYTHON_CODES);
