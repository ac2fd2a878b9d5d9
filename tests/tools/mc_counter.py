"""A model-counting-competition command line around pyganak, for the tests of ``external-count:``: it
reads a DIMACS file with a ``c p show`` projection and prints ``c s exact arb int N``."""
import sys

from pyganak import Counter


def main() -> None:
    clauses, show = [], []
    with open(sys.argv[1]) as handle:
        for line in handle:
            if line.startswith("c p show "):
                show = [int(v) for v in line.split()[3:-1]]
            elif line.strip() and line[0] not in "cp":
                clauses.append([int(v) for v in line.split()[:-1]])
    counter = Counter()
    counter.add_clauses(clauses)
    if show:
        counter.set_sampling_set(show)
    count = counter.count()
    print("s SATISFIABLE" if count else "s UNSATISFIABLE")
    print("c s type pmc")
    print(f"c s exact arb int {count}")


if __name__ == "__main__":
    main()
