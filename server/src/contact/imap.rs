//! Placeholder until the IMAP client lands (replaced in this session).

use std::time::Duration;

pub const MAX_MAIL_BYTES: u32 = 25 * 1024 * 1024;

pub struct ImapAccount {
    mailbox: String,
}

impl ImapAccount {
    pub fn parse(_url: &str, _ca_file: Option<&std::path::Path>) -> anyhow::Result<Self> {
        Ok(Self {
            mailbox: "INBOX".to_owned(),
        })
    }

    pub fn mailbox(&self) -> &str {
        &self.mailbox
    }
}

pub struct FetchedMail {
    pub uid: u32,
    pub raw: Vec<u8>,
    pub whole: bool,
}

pub struct Mailbox;

impl Mailbox {
    pub async fn connect(_account: &ImapAccount) -> anyhow::Result<Self> {
        anyhow::bail!("not yet")
    }

    pub fn uid_validity(&self) -> u32 {
        0
    }

    pub async fn fetch_after(
        &mut self,
        _after: u32,
        _max: usize,
    ) -> anyhow::Result<Vec<FetchedMail>> {
        Ok(Vec::new())
    }

    pub async fn wait_for_news(&mut self, wait: Duration) -> anyhow::Result<()> {
        tokio::time::sleep(wait).await;
        Ok(())
    }

    pub async fn logout(self) {}
}
