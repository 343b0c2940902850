//! The `stitchgen` command: parses options and calls the library.

/// Generating a large API's module allocates and frees millions of small values; mimalloc's
/// thread-local free lists serve them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    stitchgen::cli::main()
}
