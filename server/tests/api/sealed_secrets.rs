//! The secrets the database keeps, sealed under the key file (`--secret-key-file`): a backup or
//! the database read without the key holds neither the second factor's key nor the device-cookie
//! key in readable form; a wrong or missing key stops start-up with one line and changes
//! nothing; a database from before is sealed on its first start and its second factor still
//! works; `portfolio secrets discard` is the one way to give them up.

use std::path::Path;
use std::process::{Command, Output};

use portfolio::store::sealed::SecretKey;
use portfolio::store::Dump;

use crate::helpers::app_with_second_factor;
use crate::helpers::{
    binary, fresh_database_url, on_postgres, postgres_only_database, sql_pool, test_key_file,
    Serve, Spawn, TestApp, TEST_SECRET_KEY,
};
use crate::helpers::{EMAIL, PASSWORD};

/// Whether `needle` occurs anywhere in `haystack`.
fn holds(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// The second factor's key in an `otpauth://` address.
fn totp_key(uri: &str) -> Vec<u8> {
    totp_rs::TOTP::from_url(uri)
        .expect("an otpauth address")
        .secret
}

/// The value of `auth_secrets` named `name`, as the table holds it.
async fn raw_secret(app: &TestApp, name: &str) -> Vec<u8> {
    sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = $1")
        .bind(name)
        .fetch_one(&app.sql)
        .await
        .unwrap()
}

/// The second factor's key, as the table holds it.
async fn raw_second_factor(sql: &sqlx::AnyPool) -> Option<Vec<u8>> {
    sqlx::query_scalar("SELECT secret FROM second_factor WHERE owner_id = 1")
        .fetch_optional(sql)
        .await
        .unwrap()
}

/// The key id the database keeps.
async fn stored_key_id(sql: &sqlx::AnyPool) -> Option<String> {
    sqlx::query_scalar("SELECT key_id FROM secret_key WHERE id = 1")
        .fetch_optional(sql)
        .await
        .unwrap()
}

/// `portfolio serve` on `database_url` with `key_file` (none: the flag and variable left out),
/// expected to stop at start-up: its output.
fn serve_refused(database_url: &str, key_file: Option<&Path>) -> Output {
    let serve = Serve::new()
        .database(database_url)
        .env_remove("PORTFOLIO_DATABASE_URL")
        .env_remove("PORTFOLIO_SECRET_KEY_FILE");
    match key_file {
        Some(file) => serve.arg("--secret-key-file").arg(file),
        None => serve,
    }
    .refused()
}

/// The one line a refused start-up wrote to standard error.
fn one_error_line(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line: {stderr}");
    lines[0].to_owned()
}

/// A file holding a new random key, in `dir`.
fn another_key_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("other.key");
    SecretKey::generate().unwrap().create(&path).unwrap();
    path
}

/// Everything `db copy` would move, read straight from the database.
async fn dump_of(database_url: &str) -> Dump {
    let db = portfolio::store::connect(database_url).await.unwrap();
    let dump = db.dump().await.unwrap();
    db.close().await;
    dump
}

#[tokio::test]
async fn a_backup_and_the_database_read_without_the_key_hold_neither_secret_readably() {
    let (app, uri, _) = app_with_second_factor().await;
    let totp = totp_key(&uri);
    let device_key = app.db.secret("device_cookie_key").await.unwrap();
    let key_bytes = hex::decode(TEST_SECRET_KEY).unwrap();
    assert_eq!(totp.len(), 20);

    // The rows: sealed, not the values, and each value of auth_secrets the server reads is
    // nowhere in its row.
    let raw_totp = raw_second_factor(&app.sql).await.unwrap();
    assert!(
        !holds(&raw_totp, &totp),
        "the second factor's key is readable"
    );
    assert_eq!(raw_totp.len(), 1 + 12 + 20 + 16);
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM auth_secrets ORDER BY name")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert!(names.iter().any(|n| n == "device_cookie_key"), "{names:?}");
    for name in &names {
        let plain = app.db.secret(name).await.unwrap();
        let raw = raw_secret(&app, name).await;
        if name == "webauthn_user_id" {
            // No secret: every passkey ceremony shows it to the browser.
            assert_eq!(raw, plain);
        } else {
            assert!(!holds(&raw, &plain), "{name} is readable in its row");
            assert!(!holds(&raw, &plain[..8]), "{name} is partly readable");
        }
    }
    let key_id = stored_key_id(&app.sql)
        .await
        .expect("the key's id is stored");
    assert_eq!(key_id, SecretKey::parse(TEST_SECRET_KEY).unwrap().id());

    // The backup: neither secret, nor the key, in any byte of the file.
    let backups = tempfile::tempdir().unwrap();
    let backup = backups.path().join("backup.db");
    let output = Command::new(binary())
        .args(["backup", "--output"])
        .arg(&backup)
        .args(["--database-url", &app.database_url])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let bytes = std::fs::read(&backup).unwrap();
    assert!(holds(&bytes, key_id.as_bytes()), "the backup names its key");
    assert!(
        !holds(&bytes, &totp),
        "the backup holds the second factor's key"
    );
    assert!(
        !holds(&bytes, &device_key),
        "the backup holds the device-cookie key"
    );
    assert!(
        !holds(&bytes, &key_bytes),
        "the backup holds the secret key"
    );
    assert!(!holds(&bytes, TEST_SECRET_KEY.as_bytes()));
    app.shutdown().await;

    // With the key, the backup is the account: the second factor works on the restored copy.
    let restored = Spawn::new().restored_from(&backup).await;
    // Past the step of the last code accepted, which the first server's moved clock reached.
    restored.advance(60);
    let browser = restored.pending_browser().await;
    let code = crate::helpers::code_at(&uri, restored.clock.now_ms());
    assert_eq!(restored.send_code(&browser, &code).await.status(), 200);
    restored.shutdown().await;
}

#[tokio::test]
async fn a_wrong_key_stops_start_up_with_one_line_and_changes_nothing() {
    let (app, uri, _) = app_with_second_factor().await;
    let before = app.db.dump().await.unwrap();
    let key_file = test_key_file(app.data_dir.path());
    let url = app.database_url.clone();
    let keys = tempfile::tempdir().unwrap();
    let wrong = another_key_file(keys.path());
    let wrong_text = std::fs::read_to_string(&wrong).unwrap();
    let data_dir = app.shutdown_keeping_data().await;

    // The binary: one line, naming the file, both keys' ids and what to do.
    let line = one_error_line(&serve_refused(&url, Some(&wrong)));
    let stored = SecretKey::parse(TEST_SECRET_KEY).unwrap().id();
    assert!(line.starts_with("error: secret-key-file: "), "{line}");
    assert!(line.contains(&wrong.display().to_string()), "{line}");
    assert!(
        line.contains(&format!("sealed with the key {stored}")),
        "{line}"
    );
    assert!(line.contains("portfolio secrets discard"), "{line}");
    // In the library too, as one line.
    let error = Spawn::new()
        .database(url.clone())
        .settings(|s| s.secrets.secret_key_file = Some(wrong.clone()))
        .refused()
        .await;
    let error = format!("{error:#}");
    assert!(
        !error.contains('\n') && error.starts_with("secret-key-file: "),
        "{error}"
    );

    // Nothing changed: every copied row, the key file and the wrong one.
    assert_eq!(dump_of(&url).await, before);
    assert_eq!(
        std::fs::read_to_string(&key_file).unwrap().trim(),
        TEST_SECRET_KEY
    );
    assert_eq!(std::fs::read_to_string(&wrong).unwrap(), wrong_text);

    // The right key opens it all again: the second factor still works.
    let app = Spawn::new().data_dir(data_dir).database(url).await;
    app.advance(60);
    let browser = app.pending_browser().await;
    assert_eq!(
        app.send_code(&browser, &app.code_now(&uri)).await.status(),
        200
    );
    app.shutdown().await;
}

#[tokio::test]
async fn with_postgresql_a_missing_key_refuses_to_start_with_a_clear_line() {
    // Refused before the database is opened: in the SQLite pass, at a server that is not there.
    let url = match postgres_only_database().await {
        Some(url) => url,
        None => "postgres://portfolio@127.0.0.1:9/portfolio".to_owned(),
    };
    let line = one_error_line(&serve_refused(&url, None));
    assert!(
        line.starts_with("error: secret-key-file: PostgreSQL needs --secret-key-file"),
        "{line}"
    );
    assert!(line.contains("portfolio secrets new-key"), "{line}");
    if on_postgres() {
        // Nothing was made in the database, not even its tables.
        let sql = sql_pool(&url).await;
        let tables: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()",
        )
        .fetch_one(&sql)
        .await
        .unwrap();
        assert_eq!(tables, 0);

        // A file named but missing: made by `portfolio secrets new-key`, never by the server.
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("secret.key");
        let line = one_error_line(&serve_refused(&url, Some(&missing)));
        assert!(
            line.contains("does not exist: make it with `portfolio secrets new-key"),
            "{line}"
        );
        assert!(!missing.exists());
        let tables_now: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()",
        )
        .fetch_one(&sql)
        .await
        .unwrap();
        assert_eq!(tables_now, 0);
        let made = Command::new(binary())
            .args(["secrets", "new-key", "--output"])
            .arg(&missing)
            .output()
            .unwrap();
        assert!(made.status.success(), "{made:?}");
        let again = Command::new(binary())
            .args(["secrets", "new-key", "--output"])
            .arg(&missing)
            .output()
            .unwrap();
        assert!(
            !again.status.success(),
            "an existing key file is never overwritten"
        );
        assert!(SecretKey::read(&missing).unwrap().is_some());
    }
}

#[test]
fn with_sqlite_the_key_is_made_0600_beside_the_database_and_its_loss_stops_start_up() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let url = format!("sqlite://{}", data.join("portfolio.db").display());
    let mut server = Serve::new()
        .database(&url)
        .env_remove("PORTFOLIO_SECRET_KEY_FILE")
        .start();
    server.kill();

    let key_file = data.join("secret.key");
    let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let key = SecretKey::read(&key_file).unwrap().expect("a key");

    // Lost (a restore that forgot it, say): start-up stops and says what to do.
    std::fs::rename(&key_file, dir.path().join("kept-apart.key")).unwrap();
    let line = one_error_line(&serve_refused(&url, None));
    assert!(line.starts_with("error: secret-key-file: "), "{line}");
    assert!(
        line.contains(&format!("{} is missing", key_file.display())),
        "{line}"
    );
    assert!(
        line.contains(&format!("sealed with the key {}", key.id())),
        "{line}"
    );
    assert!(line.contains("put that key file back"), "{line}");
    assert!(line.contains("portfolio secrets discard"), "{line}");
    assert!(!key_file.exists(), "no new key is made in its place");
}

#[tokio::test]
async fn a_database_from_before_is_sealed_on_its_first_start_and_its_second_factor_works() {
    // A database as today's main leaves it: every migration but the one that keeps the key's
    // id, and the secrets in the clear.
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database_url(dir.path()).await;
    {
        let db = portfolio::store::connect(&url).await.unwrap();
        let hash = portfolio::auth::password::hash_blocking(&secrecy::SecretString::from(
            PASSWORD.to_owned(),
        ))
        .unwrap();
        db.save_owner(EMAIL, &hash, 0, true).await.unwrap();
        db.close().await;
    }
    let totp: Vec<u8> = (1..=20).collect();
    let device_key = [0xd5u8; 32].to_vec();
    let client_salt = [0x5au8; 32].to_vec();
    let user_id = [0x07u8; 32].to_vec();
    let sql = sql_pool(&url).await;
    for statement in [
        "DROP TABLE secret_key",
        "DELETE FROM _sqlx_migrations WHERE version = 20261204100001",
    ] {
        sqlx::query(statement).execute(&sql).await.unwrap();
    }
    for (name, value) in [
        ("device_cookie_key", &device_key),
        ("client_salt", &client_salt),
        ("webauthn_user_id", &user_id),
    ] {
        sqlx::query("INSERT INTO auth_secrets (name, value) VALUES ($1, $2)")
            .bind(name)
            .bind(value.clone())
            .execute(&sql)
            .await
            .unwrap();
    }
    sqlx::query(
        "INSERT INTO second_factor (owner_id, secret, created_at, enabled_at, last_step) \
         VALUES (1, $1, 0, 0, 0)",
    )
    .bind(totp.clone())
    .execute(&sql)
    .await
    .unwrap();
    sql.close().await;

    let app = Spawn::new().data_dir(dir).database(url).await;
    // Sealed, in place, under the key whose id is now stored.
    assert_eq!(
        stored_key_id(&app.sql).await,
        Some(SecretKey::parse(TEST_SECRET_KEY).unwrap().id())
    );
    let raw_totp = raw_second_factor(&app.sql).await.unwrap();
    assert!(!holds(&raw_totp, &totp), "still in the clear");
    for (name, plain) in [
        ("device_cookie_key", &device_key),
        ("client_salt", &client_salt),
    ] {
        let raw = raw_secret(&app, name).await;
        assert!(!holds(&raw, plain), "{name} still in the clear");
        // The same value, sealed: known browsers stay known.
        assert_eq!(&app.db.secret(name).await.unwrap(), plain);
    }
    assert_eq!(raw_secret(&app, "webauthn_user_id").await, user_id);

    // The owner's authenticator app goes on working.
    let generator = portfolio::auth::second_factor::totp(&totp, "Portfolio", EMAIL).unwrap();
    let browser = app.pending_browser().await;
    let code = generator.generate(u64::try_from(app.clock.now_ms() / 1000).unwrap());
    assert_eq!(app.send_code(&browser, &code).await.status(), 200);

    // A second start finds it sealed with the same key, and seals nothing twice.
    let sealed = raw_second_factor(&app.sql).await;
    let url = app.database_url.clone();
    let data_dir = app.shutdown_keeping_data().await;
    let app = Spawn::new().data_dir(data_dir).database(url).await;
    assert_eq!(raw_second_factor(&app.sql).await, sealed);
    app.shutdown().await;
}

#[tokio::test]
async fn the_discard_command_gives_the_secrets_up_and_the_next_start_makes_new_ones() {
    let (app, _, _) = app_with_second_factor().await;
    let user_id = raw_secret(&app, "webauthn_user_id").await;
    let device_key = app.db.secret("device_cookie_key").await.unwrap();
    let url = app.database_url.clone();
    let data_dir = app.shutdown_keeping_data().await;

    let output = Command::new(binary())
        .args(["secrets", "discard", "--database-url", &url])
        .env_remove("PORTFOLIO_SECRET_KEY_FILE")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("Discarded"), "{said}");
    assert!(said.contains("second factor"), "{said}");

    let sql = sql_pool(&url).await;
    assert_eq!(stored_key_id(&sql).await, None);
    assert_eq!(raw_second_factor(&sql).await, None);
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM auth_secrets")
        .fetch_all(&sql)
        .await
        .unwrap();
    assert_eq!(names, ["webauthn_user_id"]);
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
        .fetch_one(&sql)
        .await
        .unwrap();
    assert_eq!(sessions, 0);
    sql.close().await;

    // A new key: the server starts, the password alone signs in, the passkeys' user handle is
    // kept, and the device-cookie key is a new one.
    let keys = tempfile::tempdir().unwrap();
    let new_key = another_key_file(keys.path());
    let new_id = SecretKey::read(&new_key).unwrap().unwrap().id();
    let app = Spawn::new()
        .data_dir(data_dir)
        .database(url)
        .settings(|s| {
            s.secrets.secret_key_file = Some(new_key.clone());
        })
        .await;
    assert_eq!(stored_key_id(&app.sql).await, Some(new_id));
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    assert_eq!(raw_secret(&app, "webauthn_user_id").await, user_id);
    assert_ne!(
        app.db.secret("device_cookie_key").await.unwrap(),
        device_key
    );
    app.shutdown().await;
}
