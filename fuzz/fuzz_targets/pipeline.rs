//! Any bytes through parse → check → render, and, when they check, lower and every emitter:
//! no panic, no hang, no unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let inputs = [("fuzz.stitch.yaml".to_owned(), data.to_vec())];
    let checked = stitchgen::check_inputs(&inputs, &stitchgen::Options::default());
    stitchgen::diag::render_all(&checked.diagnostics, &checked.sources, stitchgen::diag::ColorChoice::Never);
    if !checked.has_errors() {
        let generated = stitchgen::generate_checked(checked).expect("a checked contract emits");
        assert!(!generated.snapshot.is_empty());
    }
});
