//! The IMAP client (`contact::imap`) against a real Dovecot (`helpers::dovecot`): new mails read
//! in order without changing the mailbox, IDLE's news, a renumbered mailbox, a broken connection,
//! certificates and passwords refused, a mail over the limit by its header alone.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::TryStreamExt;
use portfolio::contact::imap::{ImapAccount, Mailbox, MAX_MAIL_BYTES};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};

use crate::helpers::dovecot::{TestDovecot, PASSWORD, PASSWORD_IN_URL};

fn mail(subject: &str) -> Vec<u8> {
    format!(
        "From: Visitor <visitor@example.org>\r\nTo: site@example.org\r\nSubject: {subject}\r\n\
         Message-ID: <{subject}@example.org>\r\n\r\nThe body of {subject}.\r\n"
    )
    .into_bytes()
}

fn subject_of(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    text.lines()
        .find_map(|line| line.strip_prefix("Subject: "))
        .unwrap_or_default()
        .to_owned()
}

/// Every mail's UID and flags, read by a session of the test's own (read-only too).
async fn flags(dovecot: &TestDovecot) -> Vec<(u32, Vec<String>)> {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(dovecot.ca_file()).unwrap())
        .unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots)
    .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", dovecot.port))
        .await
        .unwrap();
    let tls = tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(ServerName::try_from("localhost").unwrap(), tcp)
        .await
        .unwrap();
    let mut client = async_imap::Client::new(tls);
    client.read_response().await.unwrap();
    let mut session = client
        .login("site", PASSWORD)
        .await
        .map_err(|e| e.0)
        .unwrap();
    session.examine("INBOX").await.unwrap();
    let fetched: Vec<_> = session
        .uid_fetch("1:*", "(UID FLAGS)")
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    session.logout().await.unwrap();
    let mut flags: Vec<_> = fetched
        .iter()
        .map(|fetch| {
            let names = fetch.flags().map(|flag| format!("{flag:?}")).collect();
            (fetch.uid.unwrap(), names)
        })
        .collect();
    flags.sort();
    flags
}

#[tokio::test]
async fn reads_new_mails_in_order_and_waits_for_the_next_without_changing_the_mailbox() {
    let dovecot = TestDovecot::start();
    for subject in ["first", "second", "third"] {
        dovecot.deliver(&mail(subject));
    }
    let before = flags(&dovecot).await;
    assert_eq!(before.len(), 3);

    let mut mailbox = Mailbox::connect(&dovecot.account()).await.unwrap();
    let mails = mailbox.fetch_after(0, 50).await.unwrap();
    let subjects: Vec<_> = mails.iter().map(|mail| subject_of(&mail.raw)).collect();
    assert_eq!(subjects, ["first", "second", "third"]);
    assert!(mails.windows(2).all(|pair| pair[0].uid < pair[1].uid));
    assert!(mails.iter().all(|mail| mail.whole));
    assert_eq!(mails[0].raw, mail("first"), "the mail as delivered");
    let last = mails[2].uid;

    // `last+1:*` names the last mail again: it is not new.
    assert!(mailbox.fetch_after(last, 50).await.unwrap().is_empty());
    // At most `max`, from the first after `after_uid`.
    let two = mailbox.fetch_after(0, 2).await.unwrap();
    assert_eq!(
        two.iter().map(|mail| mail.uid).collect::<Vec<_>>(),
        [mails[0].uid, mails[1].uid]
    );
    assert!(mailbox.fetch_after(u32::MAX, 50).await.unwrap().is_empty());

    // A mail delivered while the mailbox waits (IDLE) ends the wait at once.
    let delivering = {
        let dir = dovecot.dir.path().to_owned();
        tokio::task::spawn_blocking(move || {
            std::thread::sleep(Duration::from_millis(500));
            let status = Command::new(TestDovecot::script())
                .arg("deliver")
                .arg(&dir)
                .stdin(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    use std::io::Write;
                    child.stdin.take().unwrap().write_all(&mail("fourth"))?;
                    child.wait()
                })
                .unwrap();
            assert!(status.success());
        })
    };
    let started = Instant::now();
    mailbox
        .wait_for_news(Duration::from_secs(20))
        .await
        .unwrap();
    let waited = started.elapsed();
    delivering.await.unwrap();
    assert!(waited < Duration::from_secs(10), "woke after {waited:?}");
    let news = mailbox.fetch_after(last, 50).await.unwrap();
    assert_eq!(news.len(), 1);
    assert_eq!(subject_of(&news[0].raw), "fourth");
    assert!(news[0].uid > last);

    // Nothing new: the wait lasts its time.
    let started = Instant::now();
    mailbox
        .wait_for_news(Duration::from_millis(1500))
        .await
        .unwrap();
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1400) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    mailbox.logout().await;

    // No flag was set: the mails are as they were (\Seen nowhere).
    let after = flags(&dovecot).await;
    assert_eq!(&after[..3], &before[..]);
    assert!(
        after
            .iter()
            .all(|(_, flags)| !flags.iter().any(|flag| flag.contains("Seen"))),
        "{after:?}"
    );
}

#[tokio::test]
async fn a_renumbered_mailbox_has_a_new_uid_validity_and_a_restart_keeps_it() {
    let dovecot = TestDovecot::start();
    dovecot.deliver(&mail("kept"));
    let account = dovecot.account();
    let mailbox = Mailbox::connect(&account).await.unwrap();
    let first = mailbox.uid_validity();
    mailbox.logout().await;

    dovecot.reset_uidvalidity();
    let mut mailbox = Mailbox::connect(&account).await.unwrap();
    let second = mailbox.uid_validity();
    assert_ne!(second, first);
    assert_eq!(mailbox.fetch_after(0, 50).await.unwrap().len(), 1);
    mailbox.logout().await;

    // Stopped: connecting fails, and the error holds no password.
    dovecot.stop();
    let error = Mailbox::connect(&account).await.unwrap_err();
    let shown = format!("{error:#} {error:?}");
    assert!(shown.contains("cannot connect"), "{shown}");
    assert!(
        !shown.contains(PASSWORD) && !shown.contains(PASSWORD_IN_URL),
        "{shown}"
    );

    // Started again: the same mails under the same UIDVALIDITY.
    dovecot.restart();
    let mut mailbox = Mailbox::connect(&account).await.unwrap();
    assert_eq!(mailbox.uid_validity(), second);
    let mails = mailbox.fetch_after(0, 50).await.unwrap();
    assert_eq!(mails.len(), 1);
    assert_eq!(subject_of(&mails[0].raw), "kept");
    mailbox.logout().await;
}

#[tokio::test]
async fn a_connection_that_breaks_while_waiting_is_an_error() {
    let dovecot = TestDovecot::start();
    let mut mailbox = Mailbox::connect(&dovecot.account()).await.unwrap();
    let stopping = {
        let dir = dovecot.dir.path().to_owned();
        tokio::task::spawn_blocking(move || {
            std::thread::sleep(Duration::from_millis(500));
            let output = Command::new(TestDovecot::script())
                .arg("stop")
                .arg(&dir)
                .output()
                .unwrap();
            assert!(output.status.success());
        })
    };
    let started = Instant::now();
    let error = mailbox
        .wait_for_news(Duration::from_secs(20))
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(10));
    stopping.await.unwrap();
    assert!(!format!("{error:#}").contains(PASSWORD), "{error:#}");
    // The session is closed after the error: every later call fails at once.
    let again = mailbox.fetch_after(0, 50).await.unwrap_err();
    assert!(format!("{again:#}").contains("earlier error"), "{again:#}");
}

#[tokio::test]
async fn refuses_a_certificate_it_cannot_verify_and_a_wrong_password() {
    let dovecot = TestDovecot::start();
    // No CA file: the test's certificate is signed by no root that is trusted.
    let account = ImapAccount::parse(&dovecot.url(), None).unwrap();
    let error = Mailbox::connect(&account).await.unwrap_err();
    let shown = format!("{error:#}");
    assert!(shown.contains("TLS handshake"), "{shown}");
    assert!(shown.contains("certificate"), "{shown}");
    assert!(!shown.contains(PASSWORD), "{shown}");

    // An address that the certificate does not name.
    let localhost_only = TestDovecot::start_for(&["localhost"]);
    let error = Mailbox::connect(&localhost_only.account())
        .await
        .unwrap_err();
    let shown = format!("{error:#}");
    assert!(
        shown.contains("TLS handshake") && shown.contains("not valid for name"),
        "{shown}"
    );

    // The right password, percent-encoded in the URL, logs in (by the host name too).
    let account = ImapAccount::parse(
        &format!("imaps://site:{PASSWORD_IN_URL}@localhost:{}", dovecot.port),
        Some(&dovecot.ca_file()),
    )
    .unwrap();
    let mailbox = Mailbox::connect(&account).await.unwrap();
    assert!(mailbox.uid_validity() > 0);
    mailbox.logout().await;
    // A wrong password: refused, and neither it nor the right one is in the error. (Last:
    // Dovecot delays the next logins from an address after a failed one.)
    let wrong = "wr0ng:p@ss";
    let account = ImapAccount::parse(
        &format!(
            "imaps://site:wr0ng%3Ap%40ss@127.0.0.1:{}/INBOX",
            dovecot.port
        ),
        Some(&dovecot.ca_file()),
    )
    .unwrap();
    let error = Mailbox::connect(&account).await.unwrap_err();
    let shown = format!("{error:#} {error:?}");
    assert!(shown.contains("refused the login of site"), "{shown}");
    assert!(
        !shown.contains(wrong) && !shown.contains(PASSWORD),
        "{shown}"
    );
}

#[tokio::test]
async fn a_mail_over_the_limit_comes_as_its_header_alone() {
    let dovecot = TestDovecot::start();
    dovecot.deliver(&mail("small"));
    let mut large = mail("large");
    let line = b"0123456789012345678901234567890123456789012345678901234567890123456789\r\n";
    while large.len() <= MAX_MAIL_BYTES as usize {
        large.extend_from_slice(line);
    }
    dovecot.deliver(&large);
    dovecot.deliver(&mail("after"));

    let mut mailbox = Mailbox::connect(&dovecot.account()).await.unwrap();
    let mails = mailbox.fetch_after(0, 50).await.unwrap();
    let seen: Vec<_> = mails
        .iter()
        .map(|mail| (subject_of(&mail.raw), mail.whole))
        .collect();
    assert_eq!(
        seen,
        [
            ("small".to_owned(), true),
            ("large".to_owned(), false),
            ("after".to_owned(), true)
        ]
    );
    let header = String::from_utf8(mails[1].raw.clone()).unwrap();
    assert!(header.ends_with("\r\n\r\n"), "{header}");
    assert!(!header.contains("0123456789"), "the header alone");
    mailbox.logout().await;
}
