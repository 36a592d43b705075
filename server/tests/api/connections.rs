//! No single client can hold the server: HTTP/2 connections end when idle whatever PINGs come,
//! answers that send nothing close their connection after the send timeout (HTTP/2 windows left
//! at zero, HTTP/1 clients that do not read), a large file is held once however many answers
//! send it, and one address may open only so many connections.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::Request;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use crate::helpers::{fresh_database_url, spawn_app_with, Serve, ServerProcess, TestApp, PATIENCE};

/// Connects from `from` (any of 127/8: Linux routes all of it to loopback), so that one test
/// can be several clients.
async fn connect_from(from: &str, to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(format!("{from}:0").parse().unwrap())
        .expect("a loopback address to bind");
    socket.connect(to).await.expect("a connection")
}

fn address(app: &TestApp) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], app.port))
}

/// Whether the server has closed `stream`: a read sees the end (or a reset) within `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 16 * 1024];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// An HTTP/2 (prior knowledge) client on `stream`; its connection runs in a task that ends
/// when the server closes it.
async fn h2_client(
    stream: TcpStream,
    builder: &h2::client::Builder,
) -> (
    h2::client::SendRequest<Bytes>,
    h2::PingPong,
    tokio::task::JoinHandle<()>,
) {
    let (send, mut connection) = builder
        .handshake::<_, Bytes>(stream)
        .await
        .expect("an HTTP/2 handshake");
    let ping_pong = connection.ping_pong().expect("the PING handle");
    let task = tokio::spawn(async move {
        let _ = connection.await;
    });
    (send, ping_pong, task)
}

fn get(url: &str) -> Request<()> {
    Request::get(url).body(()).unwrap()
}

/// PINGs every 300 ms until the connection's task ends; how long that took, or `None` when it
/// was still open after `limit`.
async fn ping_until_closed(
    ping_pong: &mut h2::PingPong,
    connection: &mut tokio::task::JoinHandle<()>,
    limit: Duration,
) -> Option<Duration> {
    let started = Instant::now();
    let deadline = tokio::time::sleep(limit);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            _ = &mut *connection => return Some(started.elapsed()),
            () = &mut deadline => return None,
            () = tokio::time::sleep(Duration::from_millis(300)) => {
                // Fails once the server has gone: the task ends then too.
                let _ = ping_pong.ping(h2::Ping::opaque()).await;
            }
        }
    }
}

#[tokio::test]
async fn an_http2_connection_that_only_pings_is_closed_after_the_idle_timeout() {
    let app = spawn_app_with(|s| s.limits.idle_timeout_secs = 2).await;
    let stream = connect_from("127.0.0.1", address(&app)).await;
    let (send, mut ping_pong, mut connection) =
        h2_client(stream, &h2::client::Builder::new()).await;
    let mut send = send.ready().await.unwrap();
    let (answer, _) = send.send_request(get(&app.url("/healthz")), true).unwrap();
    let answer = answer.await.expect("an answer over HTTP/2");
    assert_eq!(answer.status(), 200);
    let mut body = answer.into_body();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.unwrap();
        let _ = body.flow_control().release_capacity(chunk.len());
    }

    // Before this limit, PINGs moved bytes, which kept the connection open for good.
    let closed = ping_until_closed(&mut ping_pong, &mut connection, Duration::from_secs(20))
        .await
        .expect("the pinging connection is closed");
    assert!(
        closed >= Duration::from_secs(1),
        "closed after {closed:?}, before the idle timeout"
    );
    // Others are served meanwhile and after.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn an_http2_connection_that_sends_no_request_is_closed_after_the_header_timeout() {
    let app = spawn_app_with(|s| s.limits.header_timeout_secs = 1).await;
    let stream = connect_from("127.0.0.1", address(&app)).await;
    let (_send, mut ping_pong, mut connection) =
        h2_client(stream, &h2::client::Builder::new()).await;
    let closed = ping_until_closed(&mut ping_pong, &mut connection, Duration::from_secs(20)).await;
    assert!(closed.is_some(), "still open with no request");
}

/// A PDF-looking file of `size` bytes that does not compress.
fn big_pdf(size: usize) -> Vec<u8> {
    let mut data = b"%PDF-1.4\n".to_vec();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    while data.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data.extend_from_slice(&x.to_le_bytes());
    }
    data.truncate(size);
    data
}

/// The server binary on its own database (its memory its own), killed when dropped.
fn start_server(database_url: &str, args: &[&str]) -> ServerProcess {
    Serve::new()
        .database(database_url)
        .args(args)
        .test_key()
        .start()
}

/// Resident memory in bytes, from /proc.
fn rss(server: &ServerProcess) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/PID/status");
    kb * 1024
}

fn addr(server: &ServerProcess) -> SocketAddr {
    server
        .url
        .trim_start_matches("http://")
        .parse()
        .expect("an address")
}

const EIGHT_MB: usize = 8 * 1024 * 1024;

/// Puts `data` in as the uploaded resume, as the upload route stores it.
async fn save_resume(db: &portfolio::store::Db, data: &[u8]) {
    let sha256 = portfolio::media::sha256_hex(data);
    db.save_resume(data, &sha256, portfolio::clock::now_ms())
        .await
        .unwrap();
}

#[tokio::test]
async fn streams_of_a_large_file_with_a_shut_window_hold_it_once_and_close_after_the_send_timeout()
{
    let dir = tempfile::tempdir().unwrap();
    let database_url = fresh_database_url(dir.path()).await;
    let resume = big_pdf(EIGHT_MB);
    {
        let db = portfolio::store::connect(&database_url).await.unwrap();
        save_resume(&db, &resume).await;
        db.close().await;
    }
    let server = start_server(&database_url, &["--send-timeout-secs", "5"]);
    // One answer first, so the file is in and the figure below is the streams' alone.
    let client = reqwest::Client::new();
    let first = client
        .get(format!("{}/resume.pdf", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(first.bytes().await.unwrap().len(), EIGHT_MB);
    let before = rss(&server);

    let stream = connect_from("127.0.0.1", addr(&server)).await;
    let mut builder = h2::client::Builder::new();
    builder.initial_window_size(0);
    let (mut send, _ping_pong, mut connection) = h2_client(stream, &builder).await;
    let mut answers = Vec::new();
    for _ in 0..150 {
        // Beyond the server's 100 streams, the client queues them (or the server refuses them).
        match tokio::time::timeout(Duration::from_secs(2), send.clone().ready()).await {
            Ok(Ok(ready)) => send = ready,
            _ => break,
        }
        let (answer, _) = send
            .send_request(get(&format!("{}/resume.pdf", server.url)), true)
            .unwrap();
        answers.push(tokio::spawn(answer));
    }
    let started = Instant::now();
    // The answers' heads come at once (only their bodies wait for the window); measured well
    // within the send timeout.
    let heads_by = tokio::time::sleep(Duration::from_secs(2));
    tokio::pin!(heads_by);
    // Kept: a dropped answer resets its stream, which frees it on the server.
    let mut heads = Vec::new();
    for answer in answers.iter_mut() {
        tokio::select! {
            result = answer => if let Ok(Ok(answer)) = result {
                assert_eq!(answer.status(), 200);
                heads.push(answer);
            },
            () = &mut heads_by => break,
        }
    }
    let answered = heads.len();
    assert!(
        (1..=100).contains(&answered),
        "{answered} streams answered at once: at most 100 allowed"
    );
    let held = rss(&server);
    eprintln!(
        "RSS {} MB before, {} MB with {answered} streams held",
        before >> 20,
        held >> 20
    );
    // Before, each stream held its own copy: 100 x 8 MB.
    assert!(
        held < before + 64 * 1024 * 1024,
        "RSS grew from {} MB to {} MB with {answered} streams of an 8 MB file",
        before >> 20,
        held >> 20
    );

    // A normal request is served meanwhile, in full.
    let other = client
        .get(format!("{}/resume.pdf", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
    assert_eq!(other.bytes().await.unwrap(), resume);

    // Nothing can be sent: the connection is closed after the send timeout.
    let closed = tokio::time::timeout(Duration::from_secs(30), &mut connection).await;
    assert!(
        closed.is_ok(),
        "the stalled connection is still open after 30 s"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(3),
        "closed before the send timeout"
    );
}

#[tokio::test]
async fn an_http1_client_that_stops_reading_is_closed_after_the_send_timeout() {
    let app = spawn_app_with(|s| s.limits.send_timeout_secs = 1).await;
    let resume = big_pdf(EIGHT_MB);
    save_resume(&app.db, &resume).await;

    // A small receive buffer, so that the kernel cannot take the whole file for the client.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(address(&app)).await.unwrap();
    stream
        .write_all(b"GET /resume.pdf HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap();
    // The client reads nothing for several send timeouts: what it is being tested for.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut received = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut received))
        .await
        .expect("the connection ends");
    // A reset is a close too.
    let _ = read;
    assert!(
        received.len() < EIGHT_MB,
        "the whole file came ({} bytes): the connection was not closed",
        received.len()
    );
}

#[tokio::test]
async fn one_address_may_open_only_so_many_connections_and_others_are_served() {
    let app = spawn_app_with(|s| s.limits.max_connections_per_client = 3).await;
    let to = address(&app);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from("127.0.0.2", to).await);
    }
    // The fourth from the same address is closed at once, before any byte is read.
    let mut fourth = connect_from("127.0.0.2", to).await;
    assert!(
        closed_within(&mut fourth, Duration::from_secs(5)).await,
        "a fourth connection from one address was kept"
    );
    for stream in &mut held {
        assert!(
            !closed_within(stream, Duration::from_millis(200)).await,
            "a connection within the cap was closed"
        );
    }

    // Another address is served.
    let other = reqwest::Client::builder()
        .local_address("127.0.0.3".parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let answer = other.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(answer.status(), 200);

    // Once one of its connections ends, the address may open another.
    drop(held.pop());
    let again = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Ok(answer) = again.get(app.url("/healthz")).send().await {
            assert_eq!(answer.status(), 200);
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the freed slot was never given back"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn trusted_proxies_are_not_capped_with_trust_proxy() {
    let app = spawn_app_with(|s| {
        s.trust_proxy = true;
        s.limits.max_connections_per_client = 1;
    })
    .await;
    let to = address(&app);
    // 127.0.0.0/8 is trusted by default.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from("127.0.0.2", to).await);
    }
    for stream in &mut held {
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .await
            .unwrap();
        let mut head = [0u8; 12];
        tokio::time::timeout(Duration::from_secs(10), stream.read_exact(&mut head))
            .await
            .expect("an answer")
            .expect("an answer, not a closed connection");
        assert_eq!(&head, b"HTTP/1.1 200");
    }
}

/// The site's addresses of each kind, and the routes', for the HEAD tests: the page, a link's
/// page, an app route, an unknown address, the robots, the sitemap, a hashed asset, the link
/// preview's image, a health check, the API's description and the resume.
pub async fn every_kind_of_address(app_get: impl AsyncFn(&str) -> String) -> Vec<String> {
    let home = app_get("/").await;
    let asset = home
        .split("\"/assets/")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the page names a hashed asset");
    [
        "/",
        "/a/acme-AAAAAAAAAAAAAAAA",
        "/login",
        "/no/such/page",
        "/robots.txt",
        "/sitemap.xml",
        &format!("/assets/{asset}"),
        "/og-image.png",
        "/healthz",
        "/api/openapi.json",
        "/resume.pdf",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect()
}

/// Sends HEAD for `path` on an HTTP/2 connection: the answer must be headers only (HEADERS with
/// END_STREAM, no DATA), with the GET's `Content-Length` where the GET has one.
pub async fn assert_head_is_headers_only(
    send: &mut h2::client::SendRequest<Bytes>,
    url: &str,
    get_length: Option<u64>,
) {
    let mut ready = send
        .clone()
        .ready()
        .await
        .expect("the connection takes a request");
    let (answer, _) = ready
        .send_request(Request::head(url).body(()).unwrap(), true)
        .unwrap();
    let answer = answer.await.unwrap_or_else(|e| panic!("HEAD {url}: {e}"));
    assert!(
        answer.body().is_end_stream(),
        "HEAD {url} ({}) came with a body",
        answer.status()
    );
    let length = answer
        .headers()
        .get("content-length")
        .map(|v| v.to_str().unwrap().parse::<u64>().unwrap());
    if let Some(get_length) = get_length {
        assert_eq!(length, Some(get_length), "HEAD {url}: the GET's length");
    }
    *send = ready;
}

#[tokio::test]
async fn head_over_http2_answers_headers_only_on_every_kind_of_address() {
    let app = spawn_app_with(|_| {}).await;
    let paths =
        every_kind_of_address(async |path: &str| app.get(path).await.text().await.unwrap()).await;
    let stream = connect_from("127.0.0.1", address(&app)).await;
    let (mut send, _ping_pong, _connection) = h2_client(stream, &h2::client::Builder::new()).await;
    for path in &paths {
        let get = app.get_with(path, &[("Accept-Encoding", "identity")]).await;
        let length = get.content_length().filter(|_| get.status() != 304);
        assert_head_is_headers_only(&mut send, &app.url(path), length).await;
    }
    // And over HTTP/1.1, as before.
    for path in &paths {
        let head = app.client.head(app.url(path)).send().await.unwrap();
        assert!(head.bytes().await.unwrap().is_empty(), "{path}");
    }
    app.shutdown().await;
}

/// An HTTP/2 client written by hand: the preface and an empty SETTINGS frame, and never an
/// acknowledgement of anything (not the server's SETTINGS, not its shutdown PING).
async fn raw_h2_client_that_never_acknowledges(to: SocketAddr) -> TcpStream {
    let mut stream = connect_from("127.0.0.1", to).await;
    stream
        .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .await
        .unwrap();
    stream
}

/// A GET of `path` on stream 1, its header block in HPACK's plainest form (indexed `:method GET`
/// and `:scheme http`, literal `:path` and `:authority` without indexing).
fn raw_h2_get(path: &str, authority: &str) -> Vec<u8> {
    let mut block = vec![0x82, 0x86, 0x04, path.len() as u8];
    block.extend_from_slice(path.as_bytes());
    block.extend_from_slice(&[0x01, authority.len() as u8]);
    block.extend_from_slice(authority.as_bytes());
    let mut frame = vec![0, 0, block.len() as u8, 0x01, 0x05, 0, 0, 0, 1];
    frame.extend_from_slice(&block);
    frame
}

#[tokio::test]
async fn an_http2_client_that_never_acknowledges_the_shutdown_ping_is_closed_on_time() {
    // The default send timeout (a minute) would have held these connections that long.
    let app = spawn_app_with(|s| {
        s.limits.header_timeout_secs = 2;
        s.limits.idle_timeout_secs = 3;
    })
    .await;

    // No request: closed within the header timeout and two seconds.
    let started = Instant::now();
    let mut silent = raw_h2_client_that_never_acknowledges(address(&app)).await;
    assert!(
        closed_within(&mut silent, Duration::from_secs(2 + 2)).await,
        "still open {:?} after connecting without a request",
        started.elapsed()
    );

    // After a last request: within the idle timeout and two seconds of its answer.
    let mut asked = raw_h2_client_that_never_acknowledges(address(&app)).await;
    let authority = format!("127.0.0.1:{}", app.port);
    asked
        .write_all(&raw_h2_get("/healthz", &authority))
        .await
        .unwrap();
    // The answer arrives (its bytes are read by the wait below, which counts from here).
    let answered = Instant::now();
    assert!(
        closed_within(&mut asked, Duration::from_secs(3 + 2)).await,
        "still open {:?} after the answer",
        answered.elapsed()
    );
    assert_eq!(app.get("/healthz").await.status(), 200);
    app.shutdown().await;
}
