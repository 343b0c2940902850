"""Writes a ring of N resource types, each linking the next by an "expandable" field (its id,
or the resource itself: `anyOf: [{type: string}, {$ref: next}]`), with one GET per type. Every
answer reaches every type, as Stripe's resources do: the shape that made generation quadratic.

usage: python3 bench/ring.py N OUT.stitch.yaml
"""
import sys


def ring(n):
    out = ["stitch: 1", "service: ring", "types:"]
    for i in range(n):
        j = (i + 1) % n
        out += [
            f"  R{i:04}:",
            "    type: object",
            f"    description: Resource {i:04} of the ring, with its identifier, its name, when it was made, and a link to resource {j:04}.",
            "    required: [id]",
            "    properties:",
            f'      id: {{ type: string, description: "Unique identifier of resource {i:04}." }}',
            f'      name: {{ type: string, description: "Display name of resource {i:04}, as people read it." }}',
            f'      created: {{ type: integer, description: "When resource {i:04} was made, in seconds since the epoch." }}',
            "      next:",
            f"        description: Resource {j:04}, or its identifier when not expanded.",
            f'        anyOf: [{{ type: string }}, {{ $ref: "#/types/R{j:04}" }}]',
        ]
    out.append("endpoints:")
    for i in range(n):
        out += [
            f"  get{i:04}:",
            "    method: GET",
            f"    path: /r{i:04}/:id",
            f"    desc: Get one resource {i:04}.",
            f'    output: {{ $ref: "#/types/R{i:04}" }}',
        ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    with open(sys.argv[2], "w") as f:
        f.write(ring(int(sys.argv[1])))
