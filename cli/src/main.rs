//! The `stitchgen` command: parses options and calls the library.

fn main() -> std::process::ExitCode {
    stitchgen::cli::main()
}
