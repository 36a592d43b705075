//! Where the key lives that seals the secrets the database keeps (`--secret-key-file`).

use std::path::PathBuf;

use clap::Args;

/// The file name of the key beside a SQLite database, when `--secret-key-file` is not given.
pub const DEFAULT_KEY_FILE_NAME: &str = "secret.key";

/// The key that seals the server's secrets in the database (see `store::sealed`).
#[derive(Debug, Clone, Default, Args)]
pub struct SecretKeySettings {
    /// The file holding the key that seals the secrets the database keeps (the second factor's
    /// key, the device-cookie key, ...): 64 hex digits. With SQLite, `secret.key` beside the
    /// database file by default, made at the first start; required with PostgreSQL, the same
    /// file on every instance. Keep it apart from the backups.
    #[arg(long, env = "PORTFOLIO_SECRET_KEY_FILE", value_name = "FILE")]
    pub secret_key_file: Option<PathBuf>,
}
