//! Native HTTPS with rustls and the plain-HTTP listener that redirects to it.

use std::net::SocketAddr;
use std::path::Path;

use portfolio::config::Settings;

use crate::helpers::{Serve, Spawn, TestApp};
use crate::security::assert_security_headers;

/// A certificate for `localhost` and 127.0.0.1, generated for this test, written as PEM files.
fn write_certificate(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let certified =
        rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .expect("a test certificate");
    let cert_pem = certified.cert.pem();
    let cert = dir.join("cert.pem");
    let key = dir.join("key.pem");
    std::fs::write(&cert, &cert_pem).unwrap();
    std::fs::write(&key, certified.key_pair.serialize_pem()).unwrap();
    (cert, key, cert_pem)
}

/// A server on HTTPS with the test certificate, and a client that trusts it.
struct TlsApp {
    app: TestApp,
    https: SocketAddr,
    /// The test certificate, PEM.
    cert_pem: String,
    redirect: Option<SocketAddr>,
    client: reqwest::Client,
}

async fn spawn_tls_app(configure: impl FnOnce(&mut Settings)) -> TlsApp {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key, cert_pem) = write_certificate(dir.path());
    let database_url = format!("sqlite://{}", dir.path().join("t.db").display());
    let app = Spawn::new()
        .data_dir(dir)
        .database(database_url)
        .settings(|settings| {
            settings.tls_cert = Some(cert);
            settings.tls_key = Some(key);
        })
        .settings(configure)
        .await;
    let https = SocketAddr::from(([127, 0, 0, 1], app.port));
    let redirect = app.redirect;
    let client = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(cert_pem.as_bytes()).unwrap())
        .tls_built_in_root_certs(false)
        .resolve("localhost", https)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    TlsApp {
        app,
        https,
        cert_pem,
        redirect,
        client,
    }
}

impl TlsApp {
    async fn stop(self) {
        self.app.shutdown().await;
    }
}

#[tokio::test]
async fn the_tls_server_answers_with_the_test_certificate_and_sends_hsts() {
    let app = spawn_tls_app(|_| {}).await;
    let url = format!("https://localhost:{}/", app.https.port());
    let response = app.client.get(&url).send().await.expect("a TLS answer");
    assert_eq!(response.status(), 200);
    assert_security_headers(response.headers(), true, "/ over HTTPS");
    let html = response.text().await.unwrap();
    // Without --public-url the canonical link follows the TLS listener.
    assert!(
        html.contains(&format!("https://127.0.0.1:{}/", app.https.port())),
        "the canonical URL is the HTTPS listener's"
    );

    let api = app
        .client
        .get(format!(
            "https://localhost:{}/api/openapi.json",
            app.https.port()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), 200);
    assert_security_headers(api.headers(), true, "an API answer over HTTPS");
    app.stop().await;
}

#[tokio::test]
async fn a_client_that_does_not_trust_the_certificate_is_refused() {
    let app = spawn_tls_app(|_| {}).await;
    let untrusting = reqwest::Client::builder()
        .resolve("localhost", app.https)
        .build()
        .unwrap();
    let result = untrusting
        .get(format!("https://localhost:{}/", app.https.port()))
        .send()
        .await;
    assert!(
        result.is_err(),
        "an unknown certificate must fail the handshake"
    );
    app.stop().await;
}

#[tokio::test]
async fn plain_http_on_the_redirect_listener_is_sent_permanently_to_https() {
    let app = spawn_tls_app(|settings| {
        settings.http_redirect_listen = Some("127.0.0.1:0".parse().unwrap());
    })
    .await;
    let redirect = app.redirect.expect("a redirect listener");
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let response = plain
        .get(format!("http://{redirect}/login?next=%2Fdashboard"))
        .send()
        .await
        .unwrap();
    assert!(
        response.status() == 301 || response.status() == 308,
        "{}",
        response.status()
    );
    assert_eq!(
        response.headers()["location"],
        format!(
            "https://127.0.0.1:{}/login?next=%2Fdashboard",
            app.https.port()
        )
        .as_str()
    );
    assert_eq!(response.headers()["x-content-type-options"], "nosniff");
    assert!(response
        .headers()
        .get("strict-transport-security")
        .is_none());

    // Following it reaches the HTTPS server.
    let followed = app
        .client
        .get(format!(
            "https://localhost:{}/login?next=%2Fdashboard",
            app.https.port()
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(followed.status(), 200);
    app.stop().await;
    assert!(
        tokio::net::TcpStream::connect(redirect).await.is_err(),
        "the redirect listener stops with the server"
    );
}

#[tokio::test]
async fn with_a_public_url_the_redirect_goes_to_its_origin() {
    let app = spawn_tls_app(|settings| {
        settings.http_redirect_listen = Some("127.0.0.1:0".parse().unwrap());
        settings.public_url = Some("https://portfolio.example.com".parse().unwrap());
    })
    .await;
    let redirect = app.redirect.unwrap();
    let plain = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let response = plain
        .get(format!("http://{redirect}/"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.headers()["location"],
        "https://portfolio.example.com/"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_unreadable_certificate_stops_start_up_naming_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let (_, key, _) = write_certificate(dir.path());
    let bogus = dir.path().join("bogus.pem");
    std::fs::write(&bogus, "not a certificate").unwrap();
    let database_url = format!("sqlite://{}", dir.path().join("t.db").display());
    let error = Spawn::new()
        .data_dir(dir)
        .database(database_url)
        .settings(|settings| {
            settings.tls_cert = Some(bogus);
            settings.tls_key = Some(key);
        })
        .refused()
        .await;
    assert!(format!("{error:#}").contains("tls-cert"), "{error:#}");
}

#[test]
fn the_binary_logs_its_https_url() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key, _) = write_certificate(dir.path());
    let mut server = Serve::new()
        .database(&format!("sqlite://{}", dir.path().join("t.db").display()))
        .arg("--tls-cert")
        .arg(&cert)
        .arg("--tls-key")
        .arg(&key)
        .start();
    server.kill();
    let found = server.line_where(|line| line.contains("listening on "));
    let line = found.expect("a 'listening on' line");
    assert!(line.contains("listening on https://127.0.0.1:"), "{line}");
}

#[tokio::test]
async fn head_over_http2_with_tls_answers_headers_only_on_every_kind_of_address() {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, ServerName};

    use crate::connections::{assert_head_is_headers_only, every_kind_of_address};

    let app = spawn_tls_app(|_| {}).await;
    let base = format!("https://localhost:{}", app.https.port());
    let paths = every_kind_of_address(async |path: &str| {
        let answer = app
            .client
            .get(format!("{base}{path}"))
            .send()
            .await
            .unwrap();
        answer.text().await.unwrap()
    })
    .await;

    // HTTP/2 chosen by ALPN, as browsers and curl do over HTTPS.
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(app.cert_pem.as_bytes()).unwrap())
        .unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(app.https).await.unwrap();
    let tls = connector
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .expect("a TLS handshake");
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let (mut send, connection) = h2::client::handshake(tls).await.expect("HTTP/2 over TLS");
    let driver = tokio::spawn(async move {
        let _ = connection.await;
    });
    for path in &paths {
        let get = app
            .client
            .get(format!("{base}{path}"))
            .header("Accept-Encoding", "identity")
            .send()
            .await
            .unwrap();
        let length = get.content_length();
        assert_head_is_headers_only(&mut send, &format!("{base}{path}"), length).await;
    }
    drop(send);
    driver.abort();
    app.stop().await;
}
