//! The links' addresses as this instance serves them: every link's slug, its language and
//! whether it is live, kept in memory so that a page at `/a/<slug>` never waits on the database
//! (and a flood of made-up slugs never reaches it). Made again at once when this instance
//! changes a link, and followed when another does: every [`POLL_INTERVAL`] one cheap query (how
//! many links, the highest id, the sum of their revisions) says whether anything changed, and
//! only then are the addresses read again. A link made on another instance is served within a
//! few seconds; until then its address answers as an unknown one does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arc_swap::ArcSwap;

use crate::store::links::LinksFingerprint;
use crate::store::Db;

/// How often the fingerprint is read.
pub const POLL_INTERVAL: Duration = Duration::from_secs(2);

/// What a page needs of one link.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Address {
    language: String,
    expires_at: Option<i64>,
    revoked: bool,
    /// Its own resume, if it has one.
    resume: Option<super::form::LinkResume>,
}

pub struct Directory {
    addresses: ArcSwap<HashMap<String, Address>>,
    /// The fingerprint the addresses were read under; one reload at a time.
    loaded: tokio::sync::Mutex<Option<LinksFingerprint>>,
    clock: crate::clock::Clock,
    /// Whether following has been started (once).
    following: Mutex<bool>,
}

impl Directory {
    pub fn new(clock: crate::clock::Clock) -> Self {
        Self {
            addresses: ArcSwap::from_pointee(HashMap::new()),
            loaded: tokio::sync::Mutex::new(None),
            clock,
            following: Mutex::new(false),
        }
    }

    /// The language of the live link at `slug`; `None` for an unknown, revoked or expired one.
    pub fn language_of(&self, slug: &str) -> Option<String> {
        let now = self.clock.now_ms();
        self.addresses
            .load()
            .get(slug)
            .filter(|address| !address.revoked && address.expires_at.is_none_or(|at| at > now))
            .map(|address| address.language.clone())
    }

    /// The language of the page a link's resume is made in (as [`Self::page_language_of`]) and,
    /// while the link is live, its own choice of sections, projects and jobs.
    pub fn resume_of(&self, slug: &str) -> Option<(String, Option<super::form::LinkResume>)> {
        let now = self.clock.now_ms();
        let addresses = self.addresses.load();
        let address = addresses.get(slug)?;
        let live = !address.revoked && address.expires_at.is_none_or(|at| at > now);
        Some((
            address.language.clone(),
            address.resume.clone().filter(|_| live),
        ))
    }

    /// The language whose page the link at `slug` opens on: its own, whether or not it is still
    /// live, so that a revoked or expired link answers exactly as a live one does (nothing is
    /// counted through it: see [`Self::language_of`]); `None` for an unknown slug.
    pub fn page_language_of(&self, slug: &str) -> Option<String> {
        self.addresses
            .load()
            .get(slug)
            .map(|address| address.language.clone())
    }

    /// Reads the addresses again when the links changed since they were read (or always, with
    /// `force`, after this instance changed one).
    pub async fn refresh(&self, db: &Db, force: bool) -> anyhow::Result<()> {
        let mut loaded = self.loaded.lock().await;
        let fingerprint = db.links_fingerprint().await?;
        if !force && *loaded == Some(fingerprint) {
            return Ok(());
        }
        let addresses = db
            .link_addresses()
            .await?
            .into_iter()
            .map(|row| {
                (
                    row.slug,
                    Address {
                        language: row.language,
                        expires_at: row.expires_at,
                        revoked: row.revoked_at.is_some(),
                        resume: super::form::LinkResume::read(row.resume.as_deref()),
                    },
                )
            })
            .collect();
        self.addresses.store(Arc::new(addresses));
        *loaded = Some(fingerprint);
        Ok(())
    }

    /// Follows the links changed by other instances until the store closes (started once).
    pub fn follow(self: &Arc<Self>, db: Db) {
        {
            let mut following = self.following.lock().unwrap_or_else(|e| e.into_inner());
            if *following {
                return;
            }
            *following = true;
        }
        let directory = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(POLL_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(directory) = directory.upgrade() else {
                    break;
                };
                if db.is_closed() {
                    break;
                }
                if let Err(error) = directory.refresh(&db, false).await {
                    if !db.is_closed() {
                        tracing::warn!(error = %format!("{error:#}"), "could not check for changed application links");
                    }
                }
            }
        });
    }
}
