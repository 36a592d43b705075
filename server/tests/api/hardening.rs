//! The server against hostile clients: slow and numerous connections, forged client addresses,
//! and rejections outside the JSON error contract.

use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::contact::valid_form;
use crate::helpers::{spawn_app, spawn_app_with, TestApp};

const HALF_A_REQUEST: &[u8] = b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow";

/// Whether the server has closed `stream`: a read sees the end (or a reset) within `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            // An answer (say a 408) may come first; the end must follow.
            Ok(Ok(_)) => continue,
        }
    }
}

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(("127.0.0.1", app.port))
        .await
        .expect("a connection")
}

#[tokio::test]
async fn slow_clients_neither_block_others_nor_stay_past_the_header_timeout() {
    let app = spawn_app_with(|s| s.limits.header_timeout_secs = 1).await;
    let mut slow = Vec::new();
    for _ in 0..200 {
        let mut stream = connect(&app).await;
        stream.write_all(HALF_A_REQUEST).await.unwrap();
        slow.push(stream);
    }
    // Some say nothing at all.
    for _ in 0..20 {
        slow.push(connect(&app).await);
    }

    let started = Instant::now();
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "a normal request waited {:?}",
        started.elapsed()
    );

    // Everything is closed a little after the one-second header timeout.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut still_open = 0;
    for stream in &mut slow {
        if !closed_within(stream, Duration::from_millis(1500)).await {
            still_open += 1;
        }
    }
    assert_eq!(
        still_open, 0,
        "slow connections still held after the timeout"
    );
}

#[tokio::test]
async fn beyond_the_connection_cap_new_connections_are_closed_at_once() {
    let app = spawn_app_with(|s| s.limits.max_connections = 5).await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = connect(&app).await;
        stream.write_all(HALF_A_REQUEST).await.unwrap();
        held.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;

    let mut refused = connect(&app).await;
    let _ = refused
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(2), refused.read_to_end(&mut answer)).await;
    assert!(
        matches!(read, Ok(Ok(0)) | Ok(Err(_))),
        "the sixth connection was served: {:?}",
        String::from_utf8_lossy(&answer)
    );

    // Once the others go, the server takes connections again.
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn a_body_that_never_ends_is_a_json_408_after_the_request_timeout() {
    let app = spawn_app_with(|s| s.limits.request_timeout_secs = 1).await;
    let mut stream = connect(&app).await;
    stream
        .write_all(
            b"POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
              Content-Length: 200\r\n\r\n{\"name\":",
        )
        .await
        .unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"request_timeout\""), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

// --- The real client address ---

async fn contact_from(app: &TestApp, forwarded_for: &str) -> u16 {
    app.client
        .post(app.url("/api/contact"))
        .header("Sec-Fetch-Site", "same-origin")
        .header("X-Forwarded-For", forwarded_for)
        .json(&valid_form())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_forged_left_entry_does_not_make_a_new_client() {
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    // The proxy (trusted: loopback) appended the real address; the client wrote the rest.
    for i in 0..5 {
        let header = format!("198.51.100.{i}, 203.0.113.7");
        assert_eq!(contact_from(&app, &header).await, 201);
    }
    assert_eq!(contact_from(&app, "198.51.100.99, 203.0.113.7").await, 429);
    assert_eq!(contact_from(&app, "203.0.113.7").await, 429);
    // The real address of someone else is someone else.
    assert_eq!(contact_from(&app, "198.51.100.1, 203.0.113.8").await, 201);
}

#[tokio::test]
async fn an_untrusted_peers_header_is_ignored() {
    // Behind --trust-proxy, but the test client (loopback) is not one of the trusted proxies.
    let app = spawn_app_with(|s| {
        s.trust_proxy = true;
        s.limits.trusted_proxies = vec!["10.0.0.0/8".parse().unwrap()];
    })
    .await;
    for i in 0..5 {
        assert_eq!(contact_from(&app, &format!("203.0.113.{i}")).await, 201);
    }
    assert_eq!(contact_from(&app, "203.0.113.50").await, 429);

    // Without --trust-proxy the header means nothing either.
    let plain = spawn_app().await;
    for i in 0..5 {
        assert_eq!(contact_from(&plain, &format!("203.0.113.{i}")).await, 201);
    }
    assert_eq!(contact_from(&plain, "203.0.113.50").await, 429);
}

#[tokio::test]
async fn six_messages_a_minute_from_one_ipv6_slash_64_meet_the_limit() {
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    for i in 1..=5 {
        let header = format!("2001:db8:aa:bb:{i:x}::{i:x}");
        assert_eq!(contact_from(&app, &header).await, 201, "{header}");
    }
    assert_eq!(contact_from(&app, "2001:db8:aa:bb:ffff:1:2:3").await, 429);
    // The next /64 is another customer.
    assert_eq!(contact_from(&app, "2001:db8:aa:bc::1").await, 201);
    // An IPv4-mapped address is the IPv4 client.
    for _ in 0..5 {
        assert_eq!(contact_from(&app, "192.0.2.1").await, 201);
    }
    assert_eq!(contact_from(&app, "::ffff:192.0.2.1").await, 429);
}

// --- One error contract ---

async fn error_body(response: reqwest::Response, status: u16) -> Value {
    assert_eq!(response.status(), status);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    response.json().await.expect("a JSON error body")
}

#[tokio::test]
async fn a_path_that_is_not_an_id_is_a_json_422_naming_it() {
    let app = spawn_app().await;
    app.signed_in().await;
    for path in [
        "/api/messages/abc",
        "/api/messages/1.5",
        "/api/messages/99999999999999999999",
    ] {
        let body = error_body(app.get(path).await, 422).await;
        assert_eq!(body["error"]["code"], "validation_failed", "{path}: {body}");
        assert!(body["error"]["fields"]["id"].is_string(), "{path}: {body}");
    }
    let body = error_body(
        app.send(reqwest::Method::DELETE, "/api/messages/abc", None)
            .await,
        422,
    )
    .await;
    assert!(body["error"]["fields"]["id"].is_string(), "{body}");
}

#[tokio::test]
async fn a_method_a_route_does_not_take_is_a_json_405() {
    let app = spawn_app().await;
    let response = app.send(reqwest::Method::PUT, "/api/contact", None).await;
    let body = error_body(response, 405).await;
    assert_eq!(body["error"]["code"], "method_not_allowed");
}

#[tokio::test]
async fn the_openapi_document_lists_the_new_rejections() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let read = &doc["paths"]["/api/messages/{id}"]["get"]["responses"];
    assert!(read["422"].is_object(), "{read}");
    let sign_in = &doc["paths"]["/api/session"]["post"]["responses"];
    assert!(sign_in["429"].is_object() && sign_in["503"].is_object());
}
