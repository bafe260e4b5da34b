# A stand-in for the `tabulate` package (Pyodide has no copy): tabulate(rows, headers) in its
# default "simple" format, which tutorial 04 prints its dropout masks with.


def _cell(v, floatfmt):
    if isinstance(v, float):
        return format(v, floatfmt)
    return str(v)


def tabulate(rows, headers=(), tablefmt="simple", floatfmt="g", **kwargs):
    rows = [[_cell(v, floatfmt) for v in row] for row in rows]
    headers = [str(h) for h in headers]
    width = max([len(r) for r in rows] + [len(headers)])
    rows = [r + [""] * (width - len(r)) for r in rows]
    if headers:
        headers = headers + [""] * (width - len(headers))
    cols = list(zip(*([headers] if headers else []) + rows)) if rows or headers else []
    widths = [max(len(c) for c in col) for col in cols]

    def numeric(col):
        try:
            [float(c) for c in col if c != ""]
            return True
        except ValueError:
            return False

    right = [numeric(col[1:] if headers else col) for col in cols]

    def line(cells):
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    out = []
    rule = "  ".join("-" * w for w in widths)
    if headers:
        out += [line(headers), rule]
    else:
        out.append(rule)
    out += [line(r) for r in rows]
    if not headers:
        out.append(rule)
    return "\n".join(out)
