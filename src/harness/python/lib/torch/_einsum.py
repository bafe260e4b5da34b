# torch.einsum over explicit letters ("bo,bi->oi", "bhdn,bhn->bhd"): operands folded left to right,
# two at a time, as one batched matmul each (letters both share and keep are the batch, letters both
# share and drop are contracted); a letter only one operand has and nothing later needs is summed
# first. Repeated letters in one operand (diagonals) and "..." are refused by name.

from ._not_implemented import not_implemented


def einsum(equation, *operands):
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    if "..." in equation:
        not_implemented("torch.einsum with '...' (write the dims out as letters)")
    inputs, arrow, output = equation.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError(f"einsum(): {len(terms)} operands in the equation but {len(operands)} given")
    for term, t in zip(terms, operands):
        if len(set(term)) != len(term):
            not_implemented(f"torch.einsum with a letter repeated in one operand ('{term}': a diagonal)")
        if len(term) != t.dim():
            raise RuntimeError(f"einsum(): the operand '{term}' has {len(term)} letters but {t.dim()} dims")
    if not arrow:
        # Implicit output: the letters seen once, in alphabetical order, as torch's.
        letters = "".join(terms)
        output = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    sizes = {}
    for term, t in zip(terms, operands):
        for c, n in zip(term, t.shape):
            if sizes.setdefault(c, n) != n and n != 1 and sizes[c] != 1:
                raise RuntimeError(f"einsum(): '{c}' is {sizes[c]} in one operand and {n} in another")
            sizes[c] = max(sizes[c], n)
    term, acc = terms[0], operands[0]
    for i in range(1, len(terms)):
        later = set(output).union(*terms[i + 1:])
        term, acc = _pair(term, acc, terms[i], operands[i], later, sizes)
    term, acc = _sum_unneeded(term, acc, set(output))
    return acc.permute(*[term.index(c) for c in output]) if term != output else acc


def _sum_unneeded(term, t, needed):
    drop = [i for i, c in enumerate(term) if c not in needed]
    if not drop:
        return term, t
    return "".join(c for c in term if c in needed), t.sum(dim=tuple(drop))


def _pair(ta, a, tb, b, later, sizes):
    ta, a = _sum_unneeded(ta, a, later | set(tb))
    tb, b = _sum_unneeded(tb, b, later | set(ta))
    batch = [c for c in ta if c in tb and c in later]
    contract = [c for c in ta if c in tb and c not in later]
    left = [c for c in ta if c not in tb]
    right = [c for c in tb if c not in ta]

    def grouped(term, t, order):
        t = t.permute(*[term.index(c) for c in order]) if list(term) != order else t
        return t.expand(*[sizes[c] for c in order])

    def numel(letters):
        n = 1
        for c in letters:
            n *= sizes[c]
        return n

    av = grouped(ta, a, batch + left + contract).reshape(numel(batch), numel(left), numel(contract))
    bv = grouped(tb, b, batch + contract + right).reshape(numel(batch), numel(contract), numel(right))
    out = (av @ bv).reshape(tuple(sizes[c] for c in batch + left + right))
    return "".join(batch + left + right), out
