//! Random valid contracts for property tests: shared types with references, flat query inputs,
//! JSON bodies, slice views and defaults, runtime tools with presenters, every surface.

/// xorshift64*: deterministic, so a failing contract reproduces from its seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A scalar property schema, as YAML flow text.
fn scalar(rng: &mut Rng) -> &'static str {
    const KINDS: &[&str] = &[
        "{ type: string }",
        "{ type: string, minLength: 1, maxLength: 80 }",
        "{ type: string, format: email }",
        "{ type: string, format: uuid }",
        "{ type: string, format: date-time }",
        "{ type: integer, minimum: 0, maximum: 1000 }",
        "{ type: number }",
        "{ type: boolean }",
        "{ type: string, enum: [red, green, blue] }",
        "{ type: [string, \"null\"] }",
        "{ type: string, description: \"Text with */ and \\\"# in it.\" }",
    ];
    KINDS[rng.below(KINDS.len())]
}

struct Type {
    name: String,
    required: Vec<(String, String)>,
}

/// A random valid contract for service `svc{seed}`.
pub fn contract(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let svc = format!("svc{seed}");
    let mut out = format!("stitch: 1\nservice: {svc}\ntitle: Random service {seed}\ntypes:\n");
    let mut types: Vec<Type> = Vec::new();
    for t in 0..1 + rng.below(5) {
        let name = format!("T{t}");
        let mut props: Vec<(String, String)> =
            (0..1 + rng.below(6)).map(|p| (format!("f{p}"), scalar(&mut rng).to_owned())).collect();
        if let Some(earlier) = (t > 0).then(|| rng.below(t)).filter(|_| rng.chance(50)) {
            props.push((format!("ref{earlier}"), format!("{{ $ref: \"#/types/T{earlier}\" }}")));
        }
        if rng.chance(40) {
            props.push(("tags".into(), "{ type: array, items: { type: string }, maxItems: 10 }".into()));
        }
        let required: Vec<(String, String)> = props.iter().filter(|_| rng.chance(50)).cloned().collect();
        out += &format!("  {name}:\n    type: object\n");
        if !required.is_empty() {
            let names: Vec<&str> = required.iter().map(|(n, _)| n.as_str()).collect();
            out += &format!("    required: [{}]\n", names.join(", "));
        }
        out += "    properties:\n";
        for (p, s) in &props {
            out += &format!("      {p}: {s}\n");
        }
        types.push(Type { name, required });
    }
    out += "endpoints:\n";
    for e in 0..1 + rng.below(8) {
        let t = &types[rng.below(types.len())];
        let expose = ["[HTTP, MCP, AGENT, CLI]", "[HTTP]", "[HTTP, MCP]", "[HTTP, AGENT, CLI]"][rng.below(4)];
        out += &match rng.below(4) {
            0 => {
                let query = [
                    "{ type: string }",
                    "{ type: integer, minimum: 1, maximum: 500 }",
                    "{ type: boolean }",
                    "{ type: array, items: { type: string } }",
                ];
                let mut s = format!(
                    "  list{e}:\n    method: GET\n    path: /e{e}\n    desc: List things {e}.\n    input:\n      type: object\n      properties:\n        limit: {{ type: integer, minimum: 1, maximum: 500 }}\n        q: {}\n",
                    query[rng.below(query.len())]
                );
                s += &format!(
                    "    output:\n      type: object\n      required: [items]\n      properties:\n        items: {{ type: array, items: {{ $ref: \"#/types/{}\" }} }}\n    expose: {expose}\n",
                    t.name
                );
                if expose != "[HTTP]" && rng.chance(60) {
                    s += "    tool:\n      view:\n        defaults: { limit: 10 }\n";
                }
                s
            }
            1 => {
                let mut s = format!(
                    "  get{e}:\n    method: GET\n    path: /e{e}/:id\n    desc: Get one thing {e}.\n    output: {{ $ref: \"#/types/{}\" }}\n    errors: [NOT_FOUND]\n    expose: {expose}\n",
                    t.name
                );
                if expose != "[HTTP]"
                    && let Some((p, schema)) = t.required.first().filter(|_| rng.chance(70))
                {
                    s += &format!(
                        "    tool:\n      view:\n        output:\n          type: object\n          required: [{p}]\n          properties:\n            {p}: {schema}\n"
                    );
                }
                s
            }
            2 => format!(
                "  create{e}:\n    method: POST\n    path: /e{e}\n    desc: Create a thing {e}.\n    input: {{ $ref: \"#/types/{0}\" }}\n    output: {{ $ref: \"#/types/{0}\" }}\n    errors: [CONFLICT]\n    expose: {expose}\n",
                t.name
            ),
            _ => format!(
                "  delete{e}:\n    method: DELETE\n    path: /e{e}/:id\n    desc: Delete a thing {e}.\n    scope: admin\n    expose: {expose}\n"
            ),
        };
    }
    if rng.chance(50) {
        let present = if rng.chance(50) { "\n    present: [mcp, agent]" } else { "" };
        out += &format!(
            "tools:\n  summarize_{svc}:\n    action: summarize\n    desc: Summarize service {seed}.\n    input:\n      type: object\n      properties:\n        since: {{ type: string, format: date-time }}\n    output:\n      type: object\n      required: [summary]\n      properties:\n        summary: {{ type: string }}\n    transports: [MCP, AGENT, CLI]{present}\n"
        );
    }
    out
}
