//! The owner account: `portfolio owner set` and the start-up bootstrap.

use std::process::{Command, Output, Stdio};

use secrecy::SecretString;

use crate::helpers::{binary, spawn_app, spawn_app_with, Serve, Spawn};
use crate::helpers::{EMAIL, PASSWORD};

fn owner_set(database_url: &str, email: &str, stdin: &str) -> Output {
    let mut child = Command::new(binary())
        .args(["owner", "set", "--email", email])
        .env("PORTFOLIO_DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[tokio::test]
async fn owner_set_refuses_short_and_common_passwords_and_says_why() {
    let app = spawn_app().await;
    for (password, reason) in [
        ("short", "at least 12 characters"),
        ("password1234", "common"),
        ("qwertyuiop123", "common"),
    ] {
        let output = owner_set(&app.database_url, EMAIL, &format!("{password}\n"));
        assert!(!output.status.success(), "{password}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(reason), "{password}: {stderr}");
    }
    let long = "x".repeat(129);
    let output = owner_set(&app.database_url, EMAIL, &format!("{long}\n"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("at most 128"));
    assert!(!app.db.owner_exists().await.unwrap());
}

#[tokio::test]
async fn owner_set_refuses_an_invalid_email_or_an_empty_stdin() {
    let app = spawn_app().await;
    let output = owner_set(&app.database_url, "not-an-email", &format!("{PASSWORD}\n"));
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--email"));
    let output = owner_set(&app.database_url, EMAIL, "");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("standard input"));
}

#[tokio::test]
async fn owner_set_creates_the_owner_who_can_then_sign_in() {
    let app = spawn_app().await;
    let output = owner_set(&app.database_url, EMAIL, &format!("{PASSWORD}\n"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains(EMAIL));
    let hash: String = sqlx::query_scalar("SELECT password_hash FROM owner")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert!(
        hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{hash}"
    );
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
}

#[tokio::test]
async fn owner_set_replaces_the_password_ends_sessions_and_lifts_locks() {
    let app = spawn_app().await;
    app.signed_in().await;
    for attempt in 1..=6 {
        app.sign_in(EMAIL, &format!("wrong-password-{attempt}"))
            .await;
    }
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 429);

    let new_password = "a brand new owner passphrase";
    let output = owner_set(&app.database_url, EMAIL, &format!("{new_password}\r\n"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(app.sessions_in_db().await, 0);
    assert_eq!(app.get("/api/session").await.status(), 401);
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 401);
    assert_eq!(app.sign_in(EMAIL, new_password).await.status(), 200);
}

#[tokio::test]
async fn the_environment_creates_the_owner_at_start_up_only_when_none_exists() {
    let app = spawn_app_with(|s| {
        s.owner_email = Some(EMAIL.into());
        s.owner_password = Some(SecretString::from(PASSWORD));
    })
    .await;
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);

    // Another start on the same database with other values changes nothing.
    let again = Spawn::new()
        .database(app.database_url.clone())
        .settings(|s| {
            s.owner_email = Some("someone@else.example".into());
            s.owner_password = Some(SecretString::from("another long passphrase"));
        })
        .await;
    let email: String = sqlx::query_scalar("SELECT email FROM owner")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(email, EMAIL);
    again.shutdown().await;
}

#[tokio::test]
async fn a_weak_password_in_the_environment_stops_start_up_with_the_reason() {
    let error = Spawn::new()
        .settings(|s| {
            s.owner_email = Some(EMAIL.into());
            s.owner_password = Some(SecretString::from("password"));
        })
        .refused()
        .await;
    assert!(
        error.to_string().contains("PORTFOLIO_OWNER_PASSWORD"),
        "{error}"
    );
}

#[test]
fn without_an_owner_serve_logs_how_to_create_one() {
    let dir = tempfile::tempdir().unwrap();
    let database_url = format!("sqlite://{}", dir.path().join("t.db").display());
    let mut server = Serve::new()
        .database(&database_url)
        .env_remove("PORTFOLIO_OWNER_EMAIL")
        .env_remove("PORTFOLIO_OWNER_PASSWORD")
        .start();
    server.kill();
    let hint = server.line_where(|line| line.contains("owner set --email"));
    let hint = hint.expect("a line says how to create the owner");
    let command = hint
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("a command between backticks: {hint}"));
    assert!(
        command.ends_with(&format!(
            "owner set --email YOUR_EMAIL --database-url {database_url}"
        )),
        "{hint}"
    );
    // It runs as printed.
    let words: Vec<String> = command
        .replace("YOUR_EMAIL", EMAIL)
        .split(' ')
        .map(str::to_owned)
        .collect();
    let mut run = Command::new(&words[0])
        .args(&words[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    run.stdin
        .take()
        .unwrap()
        .write_all(format!("{PASSWORD}\n").as_bytes())
        .unwrap();
    let output = run.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{command}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
