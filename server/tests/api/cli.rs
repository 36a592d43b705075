//! The binary itself: start-up, settings errors, logs, and shutdown on SIGTERM.

use std::process::Command;

use crate::helpers::{binary, Serve};

#[test]
fn an_invalid_setting_stops_start_up_with_one_line_naming_it() {
    let output = Command::new(binary())
        .args(["serve", "--listen", "not-an-address"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--listen"), "{stderr}");
}

#[test]
fn an_invalid_setting_from_the_environment_is_named_too() {
    let output = Command::new(binary())
        .arg("serve")
        .env("PORTFOLIO_LISTEN", "nowhere")
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--listen"), "{stderr}");
}

#[test]
fn an_unknown_flag_stops_start_up() {
    let output = Command::new(binary())
        .args(["serve", "--no-such-flag"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("--no-such-flag"), "{stderr}");
}

#[test]
fn the_binary_runs_from_any_folder_creates_its_database_logs_requests_and_stops_on_sigterm() {
    let workdir = tempfile::tempdir().unwrap();
    let mut server = Serve::new()
        .current_dir(workdir.path())
        .env_remove("PORTFOLIO_DATABASE_URL")
        .start();
    let url = server.url.clone();
    assert!(
        workdir.path().join("data/portfolio.db").exists(),
        "SQLite file under ./data/"
    );

    let body = reqwest::blocking_get(&format!("{url}/login"));
    assert!(body.contains("<div id=\"root\""));
    let logged = server.wait_for_line("a request line", |line| line.contains("status=200"));
    assert!(
        logged.contains("GET") && logged.contains("/login") && logged.contains("latency"),
        "{logged}"
    );

    let status = server.terminate();
    assert!(status.success(), "exits cleanly after SIGTERM: {status:?}");
}

mod reqwest {
    /// A tiny blocking GET for tests that are not async.
    pub fn blocking_get(url: &str) -> String {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async { ::reqwest::get(url).await.unwrap().text().await.unwrap() })
    }
}
