//! The published document as this instance serves it: kept in memory (parsed, and as the JSON
//! answer of `GET /api/content` with its ETag), replaced at once when this instance publishes,
//! and followed when another instance or the `content` command publishes: every
//! [`POLL_INTERVAL`] one cheap query (the store's fingerprint: the last publish's number) says
//! whether anything was published, and only then is the newest version read. Polling works the same on both engines and through any
//! proxy or pooler; 2 s keeps a change elsewhere under the promised 5 s.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use anyhow::Context;
use axum::body::Bytes;
use sha2::{Digest, Sha256};

use super::case_study::{self, CaseStudy};
use super::case_study_entry::{CaseStudies, PublishedCaseStudy};
use super::document::ContentDocument;
use super::post::{Post, Posts, PublishedPost};
use super::render::{PageRenderer, Prepared};
use crate::store::content::{ContentFingerprint, EntryKey, VersionRow};
use crate::store::Db;

/// How often the newest version's number is read.
pub const POLL_INTERVAL: Duration = Duration::from_secs(2);

/// One published version, ready to serve (and, later, to render from).
#[derive(Debug)]
pub struct Published {
    /// 0 for the default document, served until something is published.
    pub version: i64,
    /// Unix ms; `None` for the default document.
    pub published_at: Option<i64>,
    pub document: ContentDocument,
    /// `{version, publishedAt, document}` as JSON.
    pub body: Bytes,
    /// A strong ETag of `body`.
    pub etag: String,
}

impl Published {
    pub fn new(version: i64, published_at: Option<i64>, document: ContentDocument) -> Self {
        let body = serde_json::to_vec(&serde_json::json!({
            "version": version,
            "publishedAt": published_at,
            // The public API shows what the pages show: a language still being translated stays
            // the owner's until it is published.
            "document": &super::language::published_only(&document),
        }))
        .expect("a document serialises");
        let digest = Sha256::digest(&body);
        let etag = format!("\"{}\"", hex::encode(&digest[..12]));
        Self {
            version,
            published_at,
            document,
            body: Bytes::from(body),
            etag,
        }
    }

    /// The default document, version 0.
    pub fn default_version() -> Self {
        Self::new(0, None, super::document::default_document().clone())
    }

    fn from_row(row: VersionRow) -> anyhow::Result<Self> {
        let document: ContentDocument = super::migrate::read(&row.document)
            .with_context(|| format!("content version {} is not a valid document", row.version))?;
        Ok(Self::new(row.version, Some(row.published_at), document))
    }
}

/// The placeholder's case studies, as version 0: served while the page is the default
/// document (version 0), beside it, so that a fresh server shows what a case study is.
pub fn default_case_studies() -> Arc<CaseStudies> {
    static DEFAULTS: std::sync::OnceLock<Arc<CaseStudies>> = std::sync::OnceLock::new();
    DEFAULTS
        .get_or_init(|| {
            Arc::new(
                case_study::default_case_studies()
                    .iter()
                    .map(|study| {
                        let served = PublishedCaseStudy {
                            version: 0,
                            published_at: None,
                            document: study.clone(),
                        };
                        (study.project.clone(), Arc::new(served))
                    })
                    .collect(),
            )
        })
        .clone()
}

/// Reads the newest version of every case study; one that cannot be read (stored behind the
/// API's back) is left out, with a warning.
async fn read_case_studies(db: &Db, now: i64) -> anyhow::Result<CaseStudies> {
    let mut studies = CaseStudies::new();
    for row in db.published_entries(case_study::KIND, now).await? {
        match serde_json::from_str::<CaseStudy>(&row.document) {
            Ok(document) => {
                studies.insert(
                    row.entry,
                    Arc::new(PublishedCaseStudy {
                        version: row.version,
                        published_at: Some(row.published_at),
                        document,
                    }),
                );
            }
            Err(error) => tracing::warn!(
                project = %row.entry,
                version = row.version,
                %error,
                "a published case study cannot be read; it is left out"
            ),
        }
    }
    Ok(studies)
}

/// Whether two sets of case studies are the same versions of the same projects' case studies.
fn same_versions(a: &CaseStudies, b: &CaseStudies) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b.iter())
            .all(|((ka, va), (kb, vb))| ka == kb && va.version == vb.version)
}

/// The published document this instance serves, and the page rendered from it.
pub struct LiveContent {
    current: RwLock<Arc<Published>>,
    /// Renders `/` from each newly served version; `None` where no page is served.
    page: Option<Arc<PageRenderer>>,
    /// The newest version found unservable, so that following does not try it every poll.
    skipped: AtomicI64,
    /// The store's fingerprint when it was last read: following reads versions only when it
    /// changes.
    seen: Mutex<ContentFingerprint>,
    /// The published case studies.
    case_studies: RwLock<Arc<CaseStudies>>,
    /// The published posts.
    posts: RwLock<Arc<Posts>>,
    /// What "now" is for a version scheduled for later (moved by `--clock-offset` in tests).
    clock: crate::clock::Clock,
    /// Held while pages are rendered and served for a publish, a revert or what another instance
    /// published: one at a time, each composed from what is served, so that no composition
    /// serves an older page or case study over a newer one.
    publishing: tokio::sync::Mutex<()>,
}

/// The case studies served beside the page's version `version`: the placeholder's too with the
/// default document (version 0), for the projects with none published.
fn served_with(version: i64, published: &Arc<CaseStudies>) -> Arc<CaseStudies> {
    if version != 0 {
        return published.clone();
    }
    let mut all = CaseStudies::clone(&default_case_studies());
    all.extend(published.iter().map(|(k, v)| (k.clone(), v.clone())));
    Arc::new(all)
}

impl LiveContent {
    /// Reads the newest version (or takes the default document when there is none), and serves
    /// `/` rendered from it. A version that cannot be read or rendered (stored by an older
    /// release, or behind the API's back) is skipped, with a warning, for the newest that can:
    /// the server starts whatever the database holds.
    pub async fn load(
        db: &Db,
        page: Option<Arc<PageRenderer>>,
        clock: crate::clock::Clock,
    ) -> anyhow::Result<Self> {
        let mut skipped = 0;
        let mut published = None;
        let now = clock.now_ms();
        let seen = db.content_fingerprint(now).await?;
        let case_studies = Arc::new(read_case_studies(db, now).await?);
        let posts = Arc::new(super::post::read_published(db, now).await?);
        for summary in db.content_versions(EntryKey::PAGE).await? {
            if summary.published_at > now {
                continue;
            }
            let Some(row) = db.content_version(EntryKey::PAGE, summary.version).await? else {
                continue;
            };
            match Self::usable(row, page.as_deref(), (&case_studies, &posts)).await {
                Ok(usable) => {
                    published = Some(usable);
                    break;
                }
                Err(error) => {
                    skipped = skipped.max(summary.version);
                    tracing::warn!(
                        version = summary.version,
                        error = %format!("{error:#}"),
                        "a published version cannot be served; serving an earlier one"
                    );
                }
            }
        }
        let published = match published {
            Some(published) => published,
            None => {
                let published = Published::default_version();
                if let Some(page) = &page {
                    page.show(
                        published.version,
                        &published.document,
                        (&served_with(published.version, &case_studies), &posts),
                        published.published_at,
                    )
                    .await
                    .context("Failed to render / from the default content")?;
                }
                published
            }
        };
        if let Some(page) = &page {
            page.show_feeds(&published.document, &posts, now);
        }
        Ok(Self {
            current: RwLock::new(Arc::new(published)),
            page,
            skipped: AtomicI64::new(skipped),
            seen: Mutex::new(seen),
            case_studies: RwLock::new(case_studies),
            posts: RwLock::new(posts),
            clock,
            publishing: tokio::sync::Mutex::new(()),
        })
    }

    /// The version parsed and, where a page is served, shown on `/`.
    async fn usable(
        row: VersionRow,
        page: Option<&PageRenderer>,
        (case_studies, posts): (&Arc<CaseStudies>, &Posts),
    ) -> anyhow::Result<Published> {
        let published = Published::from_row(row)?;
        if let Some(page) = page {
            page.show(
                published.version,
                &published.document,
                (&served_with(published.version, case_studies), posts),
                published.published_at,
            )
            .await
            .context("Failed to render / from the published content")?;
        }
        Ok(published)
    }

    /// The renderer of `/`, for the draft preview.
    pub fn page(&self) -> Option<&PageRenderer> {
        self.page.as_deref()
    }

    /// The published case studies, by project id; with the default document, the placeholder's
    /// for the projects that have none published.
    pub fn case_studies(&self) -> Arc<CaseStudies> {
        served_with(self.current().version, &self.published_case_studies())
    }

    /// The published posts, by id.
    pub fn posts(&self) -> Arc<Posts> {
        self.posts.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Serves the feeds of the posts now served, beside the page now served.
    fn show_feeds(&self) {
        if let Some(page) = &self.page {
            page.show_feeds(&self.current().document, &self.posts(), self.clock.now_ms());
        }
    }

    /// Publishes `document` as the post's next version: checked against the published page, its
    /// slug free among the published posts of its language, its date its first publish's, the
    /// slug it had kept answering with a 301; then served by this instance at once (the others
    /// follow within their next look). One publish at a time ([`Self::publishing`]). `keep` is
    /// how many versions are kept; `at` (Unix ms) schedules the version for a moment to come:
    /// until then no instance serves it (every instance's next look after it does).
    pub async fn publish_post(
        &self,
        db: &Db,
        mut document: Post,
        (at, keep): (Option<i64>, i64),
        as_draft: bool,
    ) -> Result<VersionRow, crate::error::ApiError> {
        let now = self.clock.now_ms();
        let scheduled = at.filter(|at| *at > now);
        let now = scheduled.unwrap_or(now);
        // A publish shows the post, a reverted unpublishing's version too.
        document.withdrawn = false;
        use crate::error::ApiError;
        let _publishing = self.publishing().await;
        let page = self.current().document.clone();
        super::validate::check_post(&document, &page).map_err(ApiError::Validation)?;
        let published_tags = super::language::published_tags(&page);
        if !published_tags
            .iter()
            .any(|tag| tag.eq_ignore_ascii_case(&document.language))
        {
            return Err(ApiError::field(
                "language",
                "is not a language of the published page: publish the language first",
            ));
        }
        let posts = self.posts();
        if let Some(problem) = super::post::slug_problem(&document, &posts) {
            return Err(ApiError::field("slug", problem));
        }
        // What is published now: a version scheduled for later is replaced by this publish.
        let before = super::post::published_due(db, &document.id, self.clock.now_ms()).await?;
        document.former_slugs = super::post::former_slugs(before.as_ref(), &document.slug);
        document.date = before
            .as_ref()
            .and_then(|p| p.date)
            .or(document.date)
            .or(Some(now));
        let json = serde_json::to_string(&document).map_err(anyhow::Error::from)?;
        // Its pages are rendered before it is stored: a post that cannot be drawn is never
        // published, and visitors keep the pages they had. A scheduled one is drawn when due.
        let prepared = match (&self.page, scheduled) {
            (Some(page), None) => {
                let mut with = Posts::clone(&posts);
                with.insert(
                    document.id.clone(),
                    Arc::new(PublishedPost {
                        version: i64::MAX,
                        published_at: now,
                        document: document.clone(),
                    }),
                );
                let current = self.current();
                let prepared = page
                    .prepare(
                        &current.document,
                        (&self.case_studies(), &with),
                        current.published_at,
                    )
                    .await
                    .map_err(|error| {
                        tracing::error!(error = %format!("{error:#}"), "the post's page could not be rendered");
                        ApiError::field(
                            "body",
                            "The post's page could not be rendered from this draft, so nothing \
                             was published. Undo the last change and try again.",
                        )
                    })?;
                Some(prepared)
            }
            _ => None,
        };
        // A publish or unpublishing scheduled for later is replaced by this one.
        db.drop_scheduled_content(super::post::key(&document.id), self.clock.now_ms())
            .await?;
        let row = db
            .publish_content(super::post::key(&document.id), &json, now, keep, as_draft)
            .await?;
        if scheduled.is_none() {
            self.show_post(
                PublishedPost {
                    version: row.version,
                    published_at: row.published_at,
                    document,
                },
                prepared,
            )
            .await;
        }
        Ok(row)
    }

    /// Unpublishes post `id`: a version of it marked withdrawn, stored at `at` (a moment to come
    /// schedules it) or now; from then on no address shows the post. Its pages are drawn
    /// without it before it is stored. One publish at a time ([`Self::publishing`]).
    pub async fn unpublish_post(
        &self,
        db: &Db,
        id: &str,
        (at, keep): (Option<i64>, i64),
    ) -> Result<VersionRow, crate::error::ApiError> {
        use crate::error::ApiError;
        let _publishing = self.publishing().await;
        let now = self.clock.now_ms();
        let scheduled = at.filter(|at| *at > now);
        let Some(mut document) = super::post::published_due(db, id, self.clock.now_ms()).await?
        else {
            return Err(ApiError::NotFound);
        };
        if document.withdrawn {
            return Err(ApiError::Conflict(
                "The post is already unpublished (or its unpublishing is scheduled).".into(),
            ));
        }
        document.withdrawn = true;
        let json = serde_json::to_string(&document).map_err(anyhow::Error::from)?;
        let prepared = match (&self.page, scheduled) {
            (Some(page), None) => {
                let mut without = Posts::clone(&self.posts());
                without.remove(id);
                let current = self.current();
                Some(
                    page.prepare(
                        &current.document,
                        (&self.case_studies(), &without),
                        current.published_at,
                    )
                    .await?,
                )
            }
            _ => None,
        };
        // A publish or unpublishing scheduled for later is replaced by this one.
        db.drop_scheduled_content(super::post::key(id), self.clock.now_ms())
            .await?;
        let row = db
            .publish_content(
                super::post::key(id),
                &json,
                scheduled.unwrap_or(now),
                keep,
                false,
            )
            .await?;
        if scheduled.is_none() {
            {
                let mut served = self.posts.write().unwrap_or_else(|e| e.into_inner());
                let mut next = Posts::clone(&served);
                next.remove(id);
                *served = Arc::new(next);
            }
            if let (Some(page), Some(prepared)) = (&self.page, prepared) {
                page.show_prepared(self.current().version, prepared).await;
            }
            self.show_feeds();
        }
        Ok(row)
    }

    /// Serves `post`, just published by this instance, with the pages rendered with it, unless
    /// a newer version of it is served.
    async fn show_post(&self, post: PublishedPost, prepared: Option<super::render::Prepared>) {
        {
            let mut served = self.posts.write().unwrap_or_else(|e| e.into_inner());
            if served
                .get(&post.document.id)
                .is_some_and(|p| p.version >= post.version)
            {
                return;
            }
            let mut next = Posts::clone(&served);
            next.insert(post.document.id.clone(), Arc::new(post));
            *served = Arc::new(next);
        }
        if let (Some(page), Some(prepared)) = (&self.page, prepared) {
            page.show_prepared(self.current().version, prepared).await;
        }
        self.show_feeds();
    }

    /// The published case studies alone, without the placeholder's.
    fn published_case_studies(&self) -> Arc<CaseStudies> {
        self.case_studies
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits for the publishes under way: held while a publish renders, stores and serves.
    pub async fn publishing(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.publishing.lock().await
    }

    /// Renders the pages as they would be with `study` published beside the served page,
    /// without serving them (`None` where no page is served): a case study's publish calls this
    /// (holding [`Self::publishing`]) before it stores anything.
    pub async fn prepare_case_study(
        &self,
        study: &PublishedCaseStudy,
    ) -> anyhow::Result<Option<Prepared>> {
        let Some(page) = &self.page else {
            return Ok(None);
        };
        let current = self.current();
        let mut studies = CaseStudies::clone(&self.case_studies());
        studies.insert(
            study.document.project.clone(),
            Arc::new(PublishedCaseStudy {
                version: study.version,
                published_at: study.published_at,
                document: study.document.clone(),
            }),
        );
        Ok(Some(
            page.prepare(
                &current.document,
                (&studies, &self.posts()),
                current.published_at,
            )
            .await?,
        ))
    }

    /// Publishes `document` as its project's next version: checked against the published page,
    /// its slug free, the slug it had kept answering with a 301 to the new one; its pages
    /// rendered before it is stored (a case study that cannot be drawn is never published, and
    /// visitors keep the pages they had), then served by this instance at once (the others follow
    /// within their next look). One publish at a time ([`Self::publishing`]).
    /// `keep` is how many versions are kept; `at` (Unix ms) schedules the version for a moment to
    /// come: until then no instance serves it (every instance's next look after it does).
    pub async fn publish_case_study(
        &self,
        db: &Db,
        document: CaseStudy,
        (at, keep): (Option<i64>, i64),
        as_draft: bool,
    ) -> Result<VersionRow, crate::error::ApiError> {
        use crate::error::ApiError;
        let _publishing = self.publishing().await;
        let scheduled = at.filter(|at| *at > self.clock.now_ms());
        let now = scheduled.unwrap_or_else(|| self.clock.now_ms());
        let page = self.current().document.clone();
        let document = super::case_study_entry::ready_to_publish(db, document, &page).await?;
        let json = serde_json::to_string(&document).map_err(anyhow::Error::from)?;
        let prepared = self
            .prepare_case_study(&PublishedCaseStudy {
                version: i64::MAX,
                published_at: Some(now),
                document: document.clone(),
            })
            .await
            .map_err(|error| {
                tracing::error!(error = %format!("{error:#}"), "the case study's page could not be rendered");
                ApiError::field(
                    "document",
                    "The case study's page could not be rendered from this draft, so nothing was \
                     published; visitors still see the version published before. Undo the last \
                     change and try again.",
                )
            })?;
        let key = super::case_study_entry::key(&document.project);
        // A publish scheduled for later is replaced by this one.
        db.drop_scheduled_content(key, self.clock.now_ms()).await?;
        let row = db.publish_content(key, &json, now, keep, as_draft).await?;
        if scheduled.is_none() {
            let study = PublishedCaseStudy {
                version: row.version,
                published_at: Some(row.published_at),
                document,
            };
            self.show_case_study(study, prepared).await;
        }
        Ok(row)
    }

    /// Serves `study`, just published by this instance, with the pages
    /// [`Self::prepare_case_study`] made, unless a newer version of it is served.
    pub async fn show_case_study(&self, study: PublishedCaseStudy, prepared: Option<Prepared>) {
        {
            let mut served = self.case_studies.write().unwrap_or_else(|e| e.into_inner());
            let newer = served
                .get(&study.document.project)
                .is_some_and(|s| s.version >= study.version);
            if newer {
                return;
            }
            let mut next = CaseStudies::clone(&served);
            next.insert(study.document.project.clone(), Arc::new(study));
            *served = Arc::new(next);
        }
        if let (Some(page), Some(prepared)) = (&self.page, prepared) {
            page.show_prepared(self.current().version, prepared).await;
        }
    }

    /// What "now" is for a version scheduled for later (Unix ms).
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn current(&self) -> Arc<Published> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Renders and serves the served page again with the case studies now served.
    async fn show_again(&self) -> anyhow::Result<()> {
        if let Some(page) = &self.page {
            let current = self.current();
            let prepared = page
                .prepare(
                    &current.document,
                    (&self.case_studies(), &self.posts()),
                    current.published_at,
                )
                .await?;
            page.show_prepared(current.version, prepared).await;
        }
        Ok(())
    }

    /// Serves `row` from now on, unless a newer version is already served; returns once `/`
    /// shows it. Nothing changes when `/` cannot be rendered from it.
    pub async fn replace(&self, row: VersionRow) -> anyhow::Result<Arc<Published>> {
        let published = Published::from_row(row)?;
        let prepared = self
            .prepare(&published.document, published.published_at)
            .await?;
        Ok(self.show_published(published, prepared).await)
    }

    /// Renders what `/` would be for `document`, without serving it (`None` where no page is
    /// served): a publish calls this before it stores anything.
    pub async fn prepare(
        &self,
        document: &ContentDocument,
        modified: Option<i64>,
    ) -> anyhow::Result<Option<Prepared>> {
        // The first publish of the page takes the placeholder's case studies away with the
        // default document.
        let studies = served_with(1, &self.published_case_studies());
        match &self.page {
            Some(page) => Ok(Some(
                page.prepare(document, (&studies, &self.posts()), modified)
                    .await?,
            )),
            None => Ok(None),
        }
    }

    /// Serves `published`, with the pages [`Self::prepare`] made of it, unless a newer version
    /// is already served; returns the version served.
    pub async fn show_published(
        &self,
        published: Published,
        prepared: Option<Prepared>,
    ) -> Arc<Published> {
        let published = Arc::new(published);
        let current = {
            let mut current = self.current.write().unwrap_or_else(|e| e.into_inner());
            if published.version > current.version {
                *current = published.clone();
            }
            current.clone()
        };
        if let (Some(page), Some(prepared)) = (&self.page, prepared) {
            page.show_prepared(published.version, prepared).await;
        }
        self.show_feeds();
        current
    }

    /// Reads the newest version when something was published since the last look, and serves
    /// it when its number differs from the one served.
    pub async fn refresh(&self, db: &Db) -> anyhow::Result<()> {
        let now = self.clock.now_ms();
        let fingerprint = db.content_fingerprint(now).await?;
        if fingerprint == *self.seen.lock().unwrap_or_else(|e| e.into_inner()) {
            return Ok(());
        }
        let _publishing = self.publishing().await;
        let newest = db.published_content(EntryKey::PAGE, now).await?;
        let case_studies = Arc::new(read_case_studies(db, now).await?);
        let posts = Arc::new(super::post::read_published(db, now).await?);
        let posts_changed = {
            let served = self.posts();
            served.len() != posts.len()
                || served
                    .iter()
                    .zip(posts.iter())
                    .any(|((a, va), (b, vb))| a != b || va.version != vb.version)
        };
        if posts_changed {
            *self.posts.write().unwrap_or_else(|e| e.into_inner()) = posts;
        }
        // Taken before the versions were read: a publish in between is looked at again next time.
        *self.seen.lock().unwrap_or_else(|e| e.into_inner()) = fingerprint;
        let studies_changed = !same_versions(&self.published_case_studies(), &case_studies);
        *self.case_studies.write().unwrap_or_else(|e| e.into_inner()) = case_studies;
        if posts_changed {
            tracing::info!("posts published elsewhere are now served");
        }
        let result = self
            .follow_page(newest, studies_changed || posts_changed)
            .await;
        // The feeds follow the posts and the page (its name, its languages).
        self.show_feeds();
        result
    }

    /// Serves the newest version of the page, read by [`Self::refresh`], unless it is served.
    async fn follow_page(
        &self,
        newest: Option<VersionRow>,
        studies_changed: bool,
    ) -> anyhow::Result<()> {
        // The page never published (the default document): only the entries beside it changed.
        if newest.is_none() && studies_changed {
            self.show_again().await?;
            tracing::info!("entries published elsewhere are now served");
        }
        if let Some(row) = newest {
            let version = row.version;
            if version == self.current().version || version == self.skipped.load(Ordering::Relaxed)
            {
                if studies_changed {
                    self.show_again().await?;
                    tracing::info!("case studies or posts published elsewhere are now served");
                }
                return Ok(());
            }
            if let Err(error) = self.replace(row).await {
                self.skipped.store(version, Ordering::Relaxed);
                return Err(error.context(format!(
                    "version {version}, published elsewhere, cannot be served; the page stays as it is"
                )));
            }
            tracing::info!(version, "content published elsewhere is now served");
        }
        Ok(())
    }

    /// Follows versions published by other instances and by the `content` command until the
    /// store closes.
    pub fn follow(self: &Arc<Self>, db: Db) {
        let live = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(POLL_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(live) = live.upgrade() else { break };
                if db.is_closed() {
                    break;
                }
                if let Err(error) = live.refresh(&db).await {
                    if !db.is_closed() {
                        tracing::warn!(error = %format!("{error:#}"), "could not check for newly published content");
                    }
                }
            }
        });
    }
}
