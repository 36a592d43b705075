//! TLS by the system's OpenSSL, which the binary links for passkeys already (webauthn-rs): the
//! HTTPS listener (`--tls-cert`, `--tls-key`) and the client of the servers the binary connects to
//! (the site's mailbox, the webhooks; the SMTP relay's is lettre's, on the same library). Every
//! client trusts Mozilla's roots (webpki-root-certs), whatever the host's own store holds, and the
//! certificates of a setting's CA file where it has one.

use std::path::Path;
use std::pin::Pin;

use anyhow::Context;
use openssl::pkey::PKey;
use openssl::ssl::{
    select_next_proto, AlpnError, Ssl, SslAcceptor, SslConnector, SslMethod, SslVersion,
};
use openssl::x509::store::X509StoreBuilder;
use openssl::x509::{X509VerifyResult, X509};
use tokio::io::{AsyncRead, AsyncWrite};

/// A TLS connection over `S`.
pub type Stream<S> = tokio_openssl::SslStream<S>;

/// What the listener offers for ALPN, in its order of preference: HTTP/2, then HTTP/1.1.
const ALPN: &[u8] = b"\x02h2\x08http/1.1";

/// OpenSSL's verification results for a certificate that names another host or address
/// (`X509_V_ERR_HOSTNAME_MISMATCH`, `X509_V_ERR_IP_ADDRESS_MISMATCH`).
const NAME_MISMATCH: [i32; 2] = [62, 64];

/// The HTTPS listener's side: the certificate chain and key, Mozilla's intermediate settings
/// (TLS 1.2 and 1.3, forward-secret AEAD ciphers only), HTTP/2 or HTTP/1.1 by ALPN.
#[derive(Clone)]
pub struct Acceptor(SslAcceptor);

impl std::fmt::Debug for Acceptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Acceptor(..)")
    }
}

impl Acceptor {
    /// The listener's TLS from a PEM certificate chain (the server's certificate first) and a PEM
    /// private key (PKCS #8, or the older RSA and EC forms). Errors name the setting at fault.
    pub fn from_pem_files(cert: &Path, key: &Path) -> anyhow::Result<Self> {
        let chain = certificates(cert, "tls-cert")?;
        let key_pem = std::fs::read(key)
            .ok()
            .and_then(|pem| PKey::private_key_from_pem(&pem).ok())
            .with_context(|| {
                format!(
                    "tls-key: cannot read a PEM private key from {}",
                    key.display()
                )
            })?;
        let mut builder = SslAcceptor::mozilla_intermediate_v5(SslMethod::tls_server())
            .context("tls: OpenSSL cannot set up a server")?;
        let (leaf, intermediates) = chain.split_first().expect("certificates() is never empty");
        builder
            .set_certificate(leaf)
            .context("tls-cert: the certificate is not supported")?;
        for certificate in intermediates {
            builder
                .add_extra_chain_cert(certificate.clone())
                .context("tls-cert: a certificate of the chain is not supported")?;
        }
        builder
            .set_private_key(&key_pem)
            .and_then(|()| builder.check_private_key())
            .context("tls-key: the key does not match the certificate or is not supported")?;
        builder.set_alpn_select_callback(|_, offered| {
            select_next_proto(ALPN, offered).ok_or(AlpnError::NOACK)
        });
        Ok(Self(builder.build()))
    }

    /// The handshake on `io`; `None` when it fails (the client is told by the alert).
    pub async fn accept<S: AsyncRead + AsyncWrite + Unpin>(&self, io: S) -> Option<Stream<S>> {
        let ssl = Ssl::new(self.0.context()).ok()?;
        let mut stream = Stream::new(ssl, io).ok()?;
        Pin::new(&mut stream).accept().await.ok()?;
        Some(stream)
    }
}

/// A client's side: TLS 1.2 or 1.3, the server's certificate checked against Mozilla's roots and
/// the extra ones, and for the name connected to.
#[derive(Clone)]
pub struct Connector(SslConnector);

impl std::fmt::Debug for Connector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Connector(..)")
    }
}

impl Connector {
    /// A client trusting Mozilla's roots and `extra` (a setting's CA file).
    pub fn new(extra: &[X509]) -> anyhow::Result<Self> {
        let mut builder = SslConnector::builder(SslMethod::tls_client())
            .context("tls: OpenSSL cannot set up a client")?;
        builder
            .set_min_proto_version(Some(SslVersion::TLS1_2))
            .context("tls: TLS 1.2 is not available")?;
        let mut roots = X509StoreBuilder::new().context("tls: no certificate store")?;
        for der in mozilla_roots() {
            // A root OpenSSL cannot read is left out, as a store of the system's would.
            if let Ok(root) = X509::from_der(der) {
                let _ = roots.add_cert(root);
            }
        }
        for certificate in extra {
            roots
                .add_cert(certificate.clone())
                .context("a certificate cannot be trusted as a root")?;
        }
        // In place of the store `builder` took from the system's default paths.
        builder.set_cert_store(roots.build());
        Ok(Self(builder.build()))
    }

    /// The handshake on `io` with the server named `name` (a DNS name, or an IP address in its
    /// plain form), which its certificate must name. An error says why it failed in words.
    pub async fn connect<S: AsyncRead + AsyncWrite + Unpin>(
        &self,
        name: &str,
        io: S,
    ) -> anyhow::Result<Stream<S>> {
        let ssl = self
            .0
            .configure()
            .and_then(|config| config.into_ssl(name))
            .context("tls: OpenSSL cannot set up the connection")?;
        let mut stream = Stream::new(ssl, io).context("tls: OpenSSL cannot set up the stream")?;
        match Pin::new(&mut stream).connect().await {
            Ok(()) => Ok(stream),
            Err(error) => {
                let verified = stream.ssl().verify_result();
                Err(if NAME_MISMATCH.contains(&verified.as_raw()) {
                    anyhow::anyhow!("the certificate is not valid for name {name}")
                } else if verified != X509VerifyResult::OK {
                    anyhow::anyhow!(
                        "the certificate cannot be verified: {}",
                        verified.error_string()
                    )
                } else {
                    anyhow::Error::new(error)
                })
            }
        }
    }
}

/// Mozilla's root certificates, DER-encoded.
pub fn mozilla_roots() -> impl Iterator<Item = &'static [u8]> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .map(|certificate| certificate.as_ref())
}

/// The certificates of the PEM file `path`, at least one; errors name `setting`.
pub fn certificates(path: &Path, setting: &str) -> anyhow::Result<Vec<X509>> {
    let pem = std::fs::read(path)
        .with_context(|| format!("{setting}: cannot read {}", path.display()))?;
    let certificates = X509::stack_from_pem(&pem).with_context(|| {
        format!(
            "{setting}: {} is not a PEM file of certificates",
            path.display()
        )
    })?;
    anyhow::ensure!(
        !certificates.is_empty(),
        "{setting}: {} holds no certificate",
        path.display()
    );
    Ok(certificates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mozilla_roots_are_read_whole() {
        let read = mozilla_roots()
            .filter(|der| X509::from_der(der).is_ok())
            .count();
        assert!(read > 100, "{read} roots");
        assert_eq!(read, mozilla_roots().count());
        Connector::new(&[]).unwrap();
    }
}
