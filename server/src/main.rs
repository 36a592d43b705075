//! The command line: `portfolio serve` and the owner's maintenance commands (see `portfolio::cli`).

fn main() -> std::process::ExitCode {
    portfolio::cli::main()
}
