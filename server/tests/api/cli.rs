//! The binary itself: start-up, settings errors, logs, and shutdown on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::helpers::binary;

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
    let mut child = Command::new(binary())
        .args(["serve", "--listen", "127.0.0.1:0"])
        .current_dir(workdir.path())
        .env("RUST_LOG", "info")
        .env_remove("PORTFOLIO_DATABASE_URL")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let url = crate::helpers::listening_url(&mut lines);
    assert!(
        workdir.path().join("data/portfolio.db").exists(),
        "SQLite file under ./data/"
    );

    let body = reqwest::blocking_get(&format!("{url}/login"));
    assert!(body.contains("<div id=\"root\""));
    let logged = loop {
        let line = lines.next().expect("a request line").unwrap();
        if line.contains("status=200") {
            break line;
        }
    };
    assert!(
        logged.contains("GET") && logged.contains("/login") && logged.contains("latency"),
        "{logged}"
    );

    let pid = child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let status = wait_with_timeout(&mut child, Duration::from_secs(10));
    assert!(status.success(), "exits cleanly after SIGTERM: {status:?}");
}

fn wait_with_timeout(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the server did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

mod reqwest {
    /// A tiny blocking GET for tests that are not async.
    pub fn blocking_get(url: &str) -> String {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async { ::reqwest::get(url).await.unwrap().text().await.unwrap() })
    }
}
