//! The secrets the database keeps, sealed under a key that is not in it: the values of
//! `auth_secrets` (the device-cookie key, the address salt, the spam checks' keys, and any secret
//! a feature asks [`super::Store::secret`] for) and the second factor's key. A backup, or the
//! database read by someone without the key file, holds neither in readable form.
//!
//! - **The key**: 32 random bytes in a file of its own (`--secret-key-file`), written as 64 hex
//!   digits and a newline (`openssl rand -hex 32` makes one too). With SQLite it is by default
//!   `secret.key` beside the database file, made `0600` at the first start; with PostgreSQL it is
//!   required, and the same file for every instance. Its id ([`SecretKey::id`]: 16 hex digits of
//!   a SHA-256 of the key) is the one thing about it the database holds (table `secret_key`).
//! - **A sealed value** is `0x01 ‖ nonce (12 random bytes) ‖ ChaCha20-Poly1305 ciphertext and
//!   tag` (`crate::aead`, OpenSSL's), in the column that held the value. Its associated data names its row and
//!   purpose ([`secret_aad`], [`second_factor_aad`]), so a sealed value moved to another row or
//!   another owner does not open.
//! - **At start-up** ([`open`]) the key file's id must be the database's; a missing or different
//!   key stops start-up with one line, before anything is written. A database from before (no id
//!   yet) has its plaintext values sealed and the id stored, in one transaction
//!   ([`SealStore::unlock`]); instances that start together seal it once.
//! - **Without the key**, `portfolio secrets discard` deletes what it sealed (the second factor
//!   goes off, known browsers are forgotten, every session ends); nothing else ever does.
//! - `db copy` and backups move the sealed values and the key id as they are: a copy opens with
//!   the key of its source.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::aead::{self, NONCE_LEN};
use crate::config::database::{self, DatabaseUrl, Engine};
use crate::config::secrets::{SecretKeySettings, DEFAULT_KEY_FILE_NAME};
use crate::store::engines::{both_engines, Pools};

/// Bytes of the key.
const KEY_BYTES: usize = aead::KEY_LEN;
/// The first byte of a sealed value: its format.
const FORMAT: u8 = 1;

/// The names in `auth_secrets` kept as they are: not secrets. The owner's WebAuthn user handle
/// is sent to the browser in every passkey ceremony and signs no one in; kept readable, it
/// outlives a lost key, so that discarding the secrets leaves the passkeys working.
pub const NOT_SEALED: &[&str] = &["webauthn_user_id"];

/// Whether the named value of `auth_secrets` is sealed.
pub fn is_sealed(name: &str) -> bool {
    !NOT_SEALED.contains(&name)
}

/// The associated data of a value of `auth_secrets`: the table and the row's name.
pub fn secret_aad(name: &str) -> Vec<u8> {
    format!("portfolio/auth_secrets/{name}").into_bytes()
}

/// The associated data of the second factor's key: the table, the owner and the purpose.
pub fn second_factor_aad(owner_id: i64) -> Vec<u8> {
    format!("portfolio/second_factor/{owner_id}/totp-key").into_bytes()
}

/// The key that seals the secrets (never printed, never stored in the database).
pub struct SecretKey([u8; KEY_BYTES]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SecretKey({})", self.id())
    }
}

impl SecretKey {
    /// A new random key.
    pub fn generate() -> anyhow::Result<Self> {
        let mut bytes = [0u8; KEY_BYTES];
        aead::random(&mut bytes)?;
        Ok(Self(bytes))
    }

    /// A key file's text: 64 hex digits, surrounding white space allowed.
    pub fn parse(text: &str) -> Option<Self> {
        let mut bytes = [0u8; KEY_BYTES];
        hex::decode_to_slice(text.trim(), &mut bytes).ok()?;
        Some(Self(bytes))
    }

    /// What a key file holds.
    pub fn file_text(&self) -> String {
        format!("{}\n", hex::encode(self.0))
    }

    /// The key's id, which the database keeps: 16 hex digits of a SHA-256 of the key, which
    /// tell two keys apart and give nothing of either away.
    pub fn id(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"portfolio secret key id\0");
        hasher.update(self.0);
        hex::encode(&hasher.finalize()[..8])
    }

    /// The key in `path`; `None` when there is no such file.
    pub fn read(path: &Path) -> anyhow::Result<Option<Self>> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(error)
                    .with_context(|| format!("secret-key-file: cannot read {}", path.display()))
            }
        };
        let key = Self::parse(&text).with_context(|| {
            format!(
                "secret-key-file: {} is not a key (it must hold 64 hex digits, as \
                 `portfolio secrets new-key` writes)",
                path.display()
            )
        })?;
        {
            use std::os::unix::fs::PermissionsExt;
            if let Ok(metadata) = std::fs::metadata(path) {
                if metadata.permissions().mode() & 0o077 != 0 {
                    tracing::warn!(
                        "secret-key-file: {} may be read by other users: `chmod 600` it",
                        path.display()
                    );
                }
            }
        }
        Ok(Some(key))
    }

    /// Writes the key to a new file `path`, readable by its owner alone; an existing file is
    /// refused.
    pub fn create(&self, path: &Path) -> anyhow::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .with_context(|| format!("secret-key-file: cannot create {}", path.display()))?;
        file.write_all(self.file_text().as_bytes())
            .and_then(|()| file.sync_all())
            .with_context(|| format!("secret-key-file: cannot write {}", path.display()))
    }
}

/// Seals and opens values with the key.
pub struct Sealer {
    key: aead::Key,
    id: String,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sealer({})", self.id)
    }
}

impl Sealer {
    pub fn new(key: &SecretKey) -> Self {
        Self {
            key: aead::Key::new(&key.0).expect("a 32-byte key suits ChaCha20-Poly1305"),
            id: key.id(),
        }
    }

    /// The key's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// `plain` sealed, bound to `aad`: the format byte, a random nonce, the ciphertext and tag.
    pub fn seal(&self, aad: &[u8], plain: &[u8]) -> anyhow::Result<Vec<u8>> {
        let nonce = aead::random_nonce()?;
        let body = self
            .key
            .seal(&nonce, aad, plain)
            .map_err(|_| anyhow::anyhow!("Failed to seal a secret"))?;
        let mut sealed = Vec::with_capacity(1 + NONCE_LEN + body.len());
        sealed.push(FORMAT);
        sealed.extend_from_slice(&nonce);
        sealed.extend_from_slice(&body);
        Ok(sealed)
    }

    /// The value sealed in `sealed` for `aad`; an error when it was sealed with another key or
    /// for another row, or has been changed.
    pub fn open(&self, aad: &[u8], sealed: &[u8]) -> anyhow::Result<Vec<u8>> {
        let refused = || {
            anyhow::anyhow!(
                "a sealed secret ({}) does not open with the key {}: it was sealed with another \
                 key or for another row, or it was changed",
                String::from_utf8_lossy(aad),
                self.id
            )
        };
        let (format, rest) = sealed.split_first().ok_or_else(refused)?;
        if *format != FORMAT || rest.len() < NONCE_LEN {
            return Err(refused());
        }
        let (nonce, body) = rest.split_at(NONCE_LEN);
        let nonce: &[u8; NONCE_LEN] = nonce.try_into().map_err(|_| refused())?;
        self.key.open(nonce, aad, body).ok_or_else(refused)
    }
}

/// A store that holds the sealer once start-up has checked its key.
pub(crate) trait HoldsSealer {
    fn sealer_cell(&self) -> &OnceLock<Sealer>;

    /// The sealer; an error before [`open`] has given the store its key.
    fn sealer(&self) -> anyhow::Result<&Sealer> {
        self.sealer_cell()
            .get()
            .context("the secret key is not loaded: the server's secrets cannot be read")
    }
}

/// What [`SealStore::unlock`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unlocked {
    /// The database's secrets were sealed with this key already.
    Same,
    /// The database had no key id: its secrets (this many) were sealed now, and the id stored.
    SealedNow(usize),
    /// The database's secrets are sealed with another key, whose id this is; nothing changed.
    OtherKey(String),
}

/// What [`SealStore::discard_secrets`] deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discarded {
    /// Sealed values of `auth_secrets`.
    pub secrets: u64,
    /// Whether a second factor (on or being set up) was deleted.
    pub second_factor: bool,
    pub sessions: u64,
}

/// What the sealing needs from storage.
#[async_trait::async_trait]
pub trait SealStore {
    /// The id of the key that sealed this database's secrets; `None` in a database from before
    /// (or a new one) until the first start seals them, and after a discard.
    async fn sealed_with(&self) -> anyhow::Result<Option<String>>;

    /// Gives the store its key. When the database has no key id yet, seals every plaintext
    /// secret and stores the key's id, in one transaction (so a database from before is migrated
    /// on its first start); when it has one, the key must be that one. Nothing changes when it
    /// is not ([`Unlocked::OtherKey`]).
    async fn unlock(&self, key: &SecretKey, now: i64) -> anyhow::Result<Unlocked>;

    /// Deletes every sealed secret (the sealed values of `auth_secrets`, the second factor with
    /// its recovery codes and pending sign-ins), every session, and the key id, in one
    /// transaction: for a database whose key is lost. The next start makes new secrets.
    async fn discard_secrets(&self) -> anyhow::Result<Discarded>;
}

both_engines! {
    impl SealStore {
        async fn sealed_with(&self) -> anyhow::Result<Option<String>> {
            sqlx::query_scalar("SELECT key_id FROM secret_key WHERE id = 1")
                .fetch_optional(self.writer())
                .await
                .context("Failed to read the secret key's id")
        }

        async fn unlock(&self, key: &SecretKey, now: i64) -> anyhow::Result<Unlocked> {
            let sealer = Sealer::new(key);
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin sealing the secrets")?;
            // Taken by one instance; another waits for its commit, then finds the row.
            let claimed: Option<i64> = sqlx::query_scalar(
                "INSERT INTO secret_key (id, key_id, created_at) VALUES (1, $1, $2) \
                 ON CONFLICT (id) DO NOTHING RETURNING id",
            )
            .bind(sealer.id())
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to store the secret key's id")?;
            let outcome = if claimed.is_some() {
                let mut sealed = 0;
                let secrets: Vec<(String, Vec<u8>)> =
                    sqlx::query_as("SELECT name, value FROM auth_secrets ORDER BY name")
                        .fetch_all(&mut *tx)
                        .await
                        .context("Failed to read the secrets to seal")?;
                for (name, value) in secrets.into_iter().filter(|(name, _)| is_sealed(name)) {
                    sqlx::query("UPDATE auth_secrets SET value = $1 WHERE name = $2")
                        .bind(sealer.seal(&secret_aad(&name), &value)?)
                        .bind(&name)
                        .execute(&mut *tx)
                        .await
                        .context("Failed to seal a secret")?;
                    sealed += 1;
                }
                let keys: Vec<(i64, Vec<u8>)> =
                    sqlx::query_as("SELECT owner_id, secret FROM second_factor ORDER BY owner_id")
                        .fetch_all(&mut *tx)
                        .await
                        .context("Failed to read the second factor's key to seal")?;
                for (owner_id, secret) in keys {
                    sqlx::query("UPDATE second_factor SET secret = $1 WHERE owner_id = $2")
                        .bind(sealer.seal(&second_factor_aad(owner_id), &secret)?)
                        .bind(owner_id)
                        .execute(&mut *tx)
                        .await
                        .context("Failed to seal the second factor's key")?;
                    sealed += 1;
                }
                tx.commit().await.context("Failed to commit the sealed secrets")?;
                Unlocked::SealedNow(sealed)
            } else {
                tx.rollback().await.context("Failed to end reading the secret key's id")?;
                match self.sealed_with().await? {
                    Some(id) if id == sealer.id() => Unlocked::Same,
                    Some(id) => return Ok(Unlocked::OtherKey(id)),
                    None => anyhow::bail!("the secret key's id went missing while starting: start again"),
                }
            };
            // A second unlock (tests reopen a store) keeps the first sealer, of the same key.
            let _ = self.sealer_cell().set(sealer);
            Ok(outcome)
        }

        async fn discard_secrets(&self) -> anyhow::Result<Discarded> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin discarding the secrets")?;
            let mut secrets = 0;
            let names: Vec<String> = sqlx::query_scalar("SELECT name FROM auth_secrets")
                .fetch_all(&mut *tx)
                .await
                .context("Failed to read the secrets' names")?;
            for name in names.iter().filter(|name| is_sealed(name)) {
                secrets += sqlx::query("DELETE FROM auth_secrets WHERE name = $1")
                    .bind(name)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to discard a secret")?
                    .rows_affected();
            }
            for table in ["recovery_codes", "pending_sign_ins"] {
                sqlx::query(&format!("DELETE FROM {table}"))
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to empty {table}"))?;
            }
            let second_factor = sqlx::query("DELETE FROM second_factor")
                .execute(&mut *tx)
                .await
                .context("Failed to discard the second factor")?
                .rows_affected()
                > 0;
            let sessions = sqlx::query("DELETE FROM sessions")
                .execute(&mut *tx)
                .await
                .context("Failed to end the sessions")?
                .rows_affected();
            sqlx::query("DELETE FROM secret_key")
                .execute(&mut *tx)
                .await
                .context("Failed to forget the secret key's id")?;
            tx.commit().await.context("Failed to commit discarding the secrets")?;
            Ok(Discarded {
                secrets,
                second_factor,
                sessions,
            })
        }
    }
}

/// Where the key is, for a database: the file given, or with SQLite `secret.key` beside the
/// database file (none for a database in memory, whose key lives as long as it does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPlace {
    File {
        path: PathBuf,
        /// Whether a missing file may be made (SQLite, while the database has no key id).
        may_create: bool,
    },
    Memory,
}

impl KeyPlace {
    /// The key's place for the database `url`, as the settings say. With PostgreSQL and no
    /// `--secret-key-file`, or a file that is not there, the one line that says what to do,
    /// before anything is opened.
    pub fn of(settings: &SecretKeySettings, url: &str) -> anyhow::Result<Self> {
        let parsed = DatabaseUrl::parse(url)?;
        let sqlite = parsed.engine() == Engine::Sqlite;
        if let Some(path) = &settings.secret_key_file {
            if !sqlite && !path.exists() {
                return Err(not_there(path));
            }
            return Ok(Self::File {
                path: path.clone(),
                may_create: sqlite,
            });
        }
        if !sqlite {
            anyhow::bail!(
                "secret-key-file: PostgreSQL needs --secret-key-file (or PORTFOLIO_SECRET_KEY_FILE), \
                 the same file on every instance: make one with `portfolio secrets new-key --output FILE`, \
                 and keep it apart from the backups"
            );
        }
        // An in-memory database (`sqlite::memory:`, `?mode=memory`), whose key lives as long.
        if parsed.expose().contains(":memory:") || parsed.expose().contains("mode=memory") {
            return Ok(Self::Memory);
        }
        let options =
            sqlx::sqlite::SqliteConnectOptions::from_str(parsed.expose()).with_context(|| {
                format!(
                    "database-url: {:?} is not a valid SQLite URL",
                    parsed.redacted()
                )
            })?;
        let file = options.get_filename();
        let folder = file.parent().unwrap_or(Path::new(""));
        Ok(Self::File {
            path: folder.join(DEFAULT_KEY_FILE_NAME),
            may_create: true,
        })
    }
}

/// The one line for a key file that PostgreSQL's instances need and that is not there.
fn not_there(path: &Path) -> anyhow::Error {
    anyhow::anyhow!(
        "secret-key-file: {} does not exist: make it with `portfolio secrets new-key --output {}` \
         and give every instance the same file",
        path.display(),
        path.display()
    )
}

/// At start-up, before anything is written: reads the key (making it, with SQLite, for a
/// database that has none yet), checks it against the database's key id and gives it to the
/// store, sealing a database from before. A missing or different key is one line that says what
/// to do.
pub async fn open<S: SealStore + ?Sized>(
    store: &S,
    place: &KeyPlace,
    database_url: &str,
    now: i64,
) -> anyhow::Result<()> {
    let stored = store.sealed_with().await?;
    let shown_url = database::redact(database_url);
    let discard = format!(
        "`portfolio secrets discard --database-url {shown_url}` to discard them (the second \
         factor goes off, known browsers are forgotten and every session ends)"
    );
    let (key, path) = match place {
        KeyPlace::Memory => (SecretKey::generate()?, None),
        KeyPlace::File { path, may_create } => match (SecretKey::read(path)?, &stored) {
            (Some(key), _) => (key, Some(path)),
            (None, Some(id)) => anyhow::bail!(
                "secret-key-file: {} is missing, and this database's secrets are sealed with the \
                 key {id}: put that key file back (from where it is kept apart from the \
                 backups), or run {discard}",
                path.display()
            ),
            (None, None) if *may_create => {
                let key = SecretKey::generate()?;
                key.create(path)?;
                tracing::info!(
                    key_id = %key.id(),
                    "made the secret key {}: keep it apart from the backups",
                    path.display()
                );
                (key, Some(path))
            }
            (None, None) => return Err(not_there(path)),
        },
    };
    let other_key = |id: &str| {
        anyhow::anyhow!(
            "secret-key-file: {} holds the key {}, but this database's secrets are sealed with \
             the key {id}: start with the key file they were sealed with, or run {discard}",
            path.map_or_else(|| "the key".to_owned(), |p| p.display().to_string()),
            key.id()
        )
    };
    if let Some(id) = stored.as_deref().filter(|id| *id != key.id()) {
        return Err(other_key(id));
    }
    match store.unlock(&key, now).await? {
        Unlocked::Same => {}
        Unlocked::SealedNow(0) => {}
        Unlocked::SealedNow(count) => tracing::info!(
            key_id = %key.id(),
            "sealed the database's {count} secrets with the secret key"
        ),
        Unlocked::OtherKey(id) => return Err(other_key(&id)),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_with_its_key_and_its_row_only() {
        let key = SecretKey::generate().unwrap();
        let sealer = Sealer::new(&key);
        let sealed = sealer
            .seal(&secret_aad("device_cookie_key"), b"the value")
            .unwrap();
        assert_eq!(sealed[0], FORMAT);
        assert_eq!(sealed.len(), 1 + NONCE_LEN + 9 + 16);
        assert!(!sealed.windows(9).any(|w| w == b"the value"));
        assert_eq!(
            sealer
                .open(&secret_aad("device_cookie_key"), &sealed)
                .unwrap(),
            b"the value"
        );
        assert!(sealer.open(&secret_aad("client_salt"), &sealed).is_err());
        let other = Sealer::new(&SecretKey::generate().unwrap());
        assert!(other
            .open(&secret_aad("device_cookie_key"), &sealed)
            .is_err());
        let mut changed = sealed.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert!(sealer
            .open(&secret_aad("device_cookie_key"), &changed)
            .is_err());
        // Two seals of one value differ (a fresh nonce each).
        assert_ne!(
            sealed,
            sealer
                .seal(&secret_aad("device_cookie_key"), b"the value")
                .unwrap()
        );
        assert!(sealer.open(&second_factor_aad(1), &sealed).is_err());
    }

    #[test]
    fn a_key_file_reads_back_and_its_id_tells_keys_apart() {
        let key = SecretKey::generate().unwrap();
        let text = key.file_text();
        assert_eq!(text.len(), 65);
        let again = SecretKey::parse(&text).unwrap();
        assert_eq!(again.id(), key.id());
        assert_eq!(key.id().len(), 16);
        assert_ne!(SecretKey::generate().unwrap().id(), key.id());
        assert!(SecretKey::parse("not a key").is_none());
        assert!(SecretKey::parse(&text[..62]).is_none());
        assert!(!format!("{key:?}").contains(text.trim()));
    }

    #[test]
    fn the_key_is_beside_a_sqlite_file_and_required_with_postgresql() {
        let none = SecretKeySettings::default();
        assert_eq!(
            KeyPlace::of(&none, "sqlite://data/portfolio.db").unwrap(),
            KeyPlace::File {
                path: PathBuf::from("data/secret.key"),
                may_create: true
            }
        );
        assert_eq!(
            KeyPlace::of(&none, "sqlite::memory:").unwrap(),
            KeyPlace::Memory
        );
        let error = KeyPlace::of(&none, "postgres://u:pw@localhost/db")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("secret-key-file: PostgreSQL needs"),
            "{error}"
        );
        let dir = std::env::temp_dir();
        let given = SecretKeySettings {
            secret_key_file: Some(dir.clone()),
        };
        assert_eq!(
            KeyPlace::of(&given, "postgres://u:pw@localhost/db").unwrap(),
            KeyPlace::File {
                path: dir,
                may_create: false
            }
        );
        let missing = SecretKeySettings {
            secret_key_file: Some(PathBuf::from("/nonexistent/secret.key")),
        };
        let error = KeyPlace::of(&missing, "postgres://u:pw@localhost/db")
            .unwrap_err()
            .to_string();
        assert!(error.contains("does not exist: make it with"), "{error}");
        assert_eq!(
            KeyPlace::of(&missing, "sqlite://data/portfolio.db").unwrap(),
            KeyPlace::File {
                path: PathBuf::from("/nonexistent/secret.key"),
                may_create: true
            }
        );
    }
}
