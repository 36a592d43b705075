//! Builds the application from its settings: the database, the listeners (port 0 works), TLS
//! and the router; then serves until Ctrl-C or SIGTERM, letting in-flight requests finish.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::extract::State;
use axum::http::{header, HeaderMap, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use url::Url;

use crate::config::Settings;
use crate::http::layers::request_log::TrustRequestId;
use crate::http::state::{AppState, Shared};
use crate::serve::{self, Limits};
use crate::site::Pages;

/// How long a graceful shutdown waits for open connections before closing them.
const GRACE: Duration = Duration::from_secs(10);

pub struct Application {
    listener: TcpListener,
    tls: Option<crate::tls::Acceptor>,
    /// Plain HTTP that redirects to the HTTPS listener.
    redirect: Option<(TcpListener, Router)>,
    /// The router, with the site's front before it (see [`crate::http::front`]).
    answers: serve::Answers,
    state: AppState,
    /// The private metrics listener (`--metrics-listen`), when on.
    metrics: Option<(TcpListener, Router)>,
    limits: Limits,
}

/// Opens the database the settings name, with SQLite's hidden test limits.
async fn connect(database: &crate::config::DatabaseSettings) -> anyhow::Result<crate::store::Db> {
    crate::store::connect_tuned(
        &database.url,
        crate::store::sqlite::SqliteTuning {
            max_page_count: database.sqlite_max_page_count,
        },
    )
    .await
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let tls = match (&settings.tls_cert, &settings.tls_key) {
            (Some(cert), Some(key)) => Some(crate::tls::Acceptor::from_pem_files(cert, key)?),
            _ => None,
        };
        // Before the database is opened: PostgreSQL without a key file stops here.
        let key = crate::store::sealed::KeyPlace::of(&settings.secrets, &settings.database.url)?;
        let db = connect(&settings.database).await?;
        // Before anything is written: a missing or different key stops start-up, changing
        // nothing; a database from before has its secrets sealed.
        let now = crate::clock::now_ms();
        if let Err(error) =
            crate::store::sealed::open(&*db, &key, &settings.database.url, now).await
        {
            db.close().await;
            return Err(error);
        }
        crate::store::start_probe(db.clone());
        let listener = TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("listen: cannot listen on {}", settings.listen))?;
        let local_addr = listener.local_addr().context("listen: no local address")?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let public_url = match &settings.public_url {
            Some(url) => url.clone(),
            None => Url::parse(&format!("{scheme}://{local_addr}"))
                .context("public-url: cannot form one from the listen address")?,
        };

        let redirect = match (settings.http_redirect_listen, tls.is_some()) {
            (Some(addr), true) => {
                let redirect_listener = TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("http-redirect-listen: cannot listen on {addr}"))?;
                let target = RedirectTarget {
                    public_url: settings.public_url.clone(),
                    tls_addr: local_addr,
                };
                let router = Router::new()
                    .fallback(redirect_to_https)
                    .with_state(Arc::new(target));
                let router = crate::http::layered(
                    router,
                    settings.limits.request_timeout(),
                    false,
                    TrustRequestId::default(),
                );
                Some((redirect_listener, router))
            }
            _ => None,
        };

        let https = settings.is_https();
        let trust_request_id = TrustRequestId(if settings.trust_proxy {
            settings.limits.trusted_proxies.clone().into()
        } else {
            Arc::from([])
        });
        let metrics = match settings.ops.metrics_listen {
            Some(addr) => Some(crate::ops::metrics::bind(addr, db.clone()).await?),
            None => None,
        };
        // Rendered and compressed early, while the C allocator still gives the compressors'
        // large buffers back to the system when they are freed (see the dummy hash below).
        let pages = Arc::new(Pages::render(&public_url, settings.compression));
        warn_if_cookies_insecure(&settings, local_addr);
        let mut limits =
            Limits::from(&settings.limits).fit_open_files(1 + u64::from(redirect.is_some()));
        if settings.trust_proxy {
            limits = limits.trusting(&settings.limits.trusted_proxies);
        }
        let files = Arc::new(crate::media::cache::FileCache::new(
            settings.limits.file_cache_bytes,
        ));
        let insights = Arc::new(crate::insights::Insights::new(
            db.clone(),
            settings.insights.clone(),
            crate::clock::Clock::ahead_by(settings.clock.clock_offset),
        ));
        let page = Arc::new(crate::content::render::PageRenderer::start(
            pages.clone(),
            Some(db.clone()),
        )?);
        let content = Arc::new(
            crate::content::live::LiveContent::load(
                &db,
                Some(page),
                crate::clock::Clock::ahead_by(settings.clock.clock_offset),
            )
            .await?,
        );
        content.follow(db.clone());
        let links = Arc::new(
            crate::links::Links::start(
                db.clone(),
                crate::clock::Clock::ahead_by(settings.clock.clock_offset),
                settings.insights.time_zone,
            )
            .await?,
        );
        let state = AppState::new(Shared {
            links,
            content,
            db,
            contact: Arc::new(crate::contact::ContactState::new(&settings)),
            auth: Arc::new(crate::auth::AuthState::new(&settings, local_addr)),
            insights,
            settings: Arc::new(settings),
            pages,
            files,
        });
        crate::auth::bootstrap(&state.db, &state.auth, &state.settings).await?;
        crate::contact::start(&state.db, &state.contact, &state.settings)?;
        if state.contact.notifications_on {
            // The weekly digest, on every channel.
            let waker = state.contact.clone();
            let job = crate::digest::DigestJob {
                db: state.db.clone(),
                channels: state.contact.channels.clone(),
                wake: Arc::new(move || waker.outbox_wake.notify_one()),
                time_zone: state.settings.insights.time_zone,
                clock: crate::clock::Clock::ahead_by(state.settings.clock.clock_offset),
                holder: format!("{:016x}", rand::random::<u64>()),
                first_section: crate::links::FIRST_SECTION,
            };
            state.contact.keep_worker(tokio::spawn(job.run()));
        }
        crate::http::api::recovery::start_reset_links(&state);

        let answers = crate::http::main_listener(state.clone(), https, trust_request_id);
        // Last: the sign-in's dummy hash, whose 19 MiB block, once freed, makes the C allocator
        // keep later large allocations on its heap for good; none of start-up's are left to go
        // there (they took 4 to 5 MB of idle memory when they came after it).
        crate::auth::password::warm_up().await;
        crate::ops::memory::release_free_memory();
        let (insights, db) = (state.insights.clone(), state.db.clone());
        crate::ops::memory::start_idle_trim(move || {
            let (insights, db) = (insights.clone(), db.clone());
            async move {
                insights.release_caches();
                db.close_idle_readers().await;
            }
        });
        Ok(Self {
            listener,
            tls,
            redirect,
            answers,
            state,
            metrics,
            limits,
        })
    }

    pub fn port(&self) -> u16 {
        self.local_addr().port()
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The address of the plain-HTTP redirect listener, when there is one.
    pub fn redirect_addr(&self) -> Option<SocketAddr> {
        self.redirect
            .as_ref()
            .and_then(|(listener, _)| listener.local_addr().ok())
    }

    /// The address of the metrics listener, when there is one.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics
            .as_ref()
            .and_then(|(listener, _)| listener.local_addr().ok())
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until Ctrl-C or SIGTERM.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `stop` completes, then waits for in-flight requests and closes the database.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let addr = self.local_addr();
        let db = self.state.db.clone();
        let contact = self.state.contact.clone();
        let (stopping, stopped) = watch::channel(false);
        tokio::spawn(async move {
            stop.await;
            let _ = stopping.send(true);
        });
        let until_stopped = move || {
            let mut stopped = stopped.clone();
            async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            }
        };

        let metrics = self.metrics.map(|(listener, router)| {
            let shutdown = until_stopped();
            if let Ok(at) = listener.local_addr() {
                tracing::info!("metrics on http://{at}/metrics");
            }
            tokio::spawn(async move {
                axum::serve(listener, router.into_make_service())
                    .with_graceful_shutdown(shutdown)
                    .await
            })
        });
        let settings = &self.state.settings;
        let clock = crate::clock::Clock::ahead_by(settings.clock.clock_offset);
        let background = crate::ops::start(&self.state.db, &settings.ops, clock, until_stopped());
        let insights = self.state.insights.clone();
        let insights_writer = tokio::spawn(insights.clone().run());

        let limits = self.limits;
        let redirect = self.redirect.map(|(listener, router)| {
            let shutdown = until_stopped();
            if let Ok(from) = listener.local_addr() {
                tracing::info!("redirecting plain HTTP from {from} to HTTPS");
            }
            tokio::spawn(serve::run_listener(
                listener,
                router,
                None,
                limits.clone().on_the_runtime(),
                shutdown,
                GRACE,
            ))
        });

        let scheme = if self.tls.is_some() { "https" } else { "http" };
        tracing::info!("listening on {scheme}://{addr}");
        serve::run_listener(
            self.listener,
            self.answers,
            self.tls,
            limits,
            until_stopped(),
            GRACE,
        )
        .await;
        if let Some(redirect) = redirect {
            redirect.await.context("the redirect server panicked")?;
        }
        background.finish().await;
        // The counts gathered since the last write, before the database closes.
        insights_writer.abort();
        if let Err(error) = insights.flush().await {
            tracing::warn!(error = %format!("{error:#}"), "the last insights were not written");
        }
        if let Some(metrics) = metrics {
            metrics
                .await
                .context("the metrics server panicked")?
                .context("the metrics server stopped with an error")?;
        }
        contact.stop();
        db.close().await;
        tracing::info!("stopped; database closed");
        Ok(())
    }
}

/// Cookies are `Secure` only when the public URL is `https://`; a server that looks reachable
/// from elsewhere (a proxy in front, or listening beyond loopback) with an `http://` public URL
/// would send the session cookie in clear.
fn cookies_insecure_but_public(settings: &Settings, listening: SocketAddr) -> bool {
    !settings.is_https() && (settings.trust_proxy || !listening.ip().is_loopback())
}

fn warn_if_cookies_insecure(settings: &Settings, listening: SocketAddr) {
    if cookies_insecure_but_public(settings, listening) {
        tracing::warn!(
            "cookies will not be Secure: the public URL is http:// but the server looks public \
             (--trust-proxy, or listening on {listening}); set --public-url https://… behind \
             HTTPS, or --tls-cert and --tls-key"
        );
    }
}

/// Where plain-HTTP requests are sent: the public URL's origin when set, else the TLS listener.
struct RedirectTarget {
    public_url: Option<Url>,
    tls_addr: SocketAddr,
}

impl RedirectTarget {
    fn origin(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.public_url {
            return url.origin().ascii_serialization();
        }
        let port = self.tls_addr.port();
        let host = if self.tls_addr.ip().is_unspecified() {
            // Listening on every interface: keep the host name the visitor used.
            headers
                .get(header::HOST)
                .and_then(|v| v.to_str().ok())
                .and_then(|host| Url::parse(&format!("http://{host}")).ok())
                .and_then(|url| url.host_str().map(str::to_owned))
                .unwrap_or_else(|| "localhost".to_owned())
        } else {
            match self.tls_addr {
                SocketAddr::V4(v4) => v4.ip().to_string(),
                SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
            }
        };
        if port == 443 {
            format!("https://{host}")
        } else {
            format!("https://{host}:{port}")
        }
    }
}

async fn redirect_to_https(
    State(target): State<Arc<RedirectTarget>>,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    Redirect::permanent(&format!("{}{path}", target.origin(&headers))).into_response()
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_looking_server_without_https_is_warned_about() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let everywhere: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let mut settings = Settings::for_database("sqlite://unused.db");
        assert!(!cookies_insecure_but_public(&settings, local));
        assert!(cookies_insecure_but_public(&settings, everywhere));
        settings.trust_proxy = true;
        assert!(cookies_insecure_but_public(&settings, local));
        settings.public_url = Some("https://example.com".parse().unwrap());
        assert!(!cookies_insecure_but_public(&settings, local));
        assert!(!cookies_insecure_but_public(&settings, everywhere));
    }
}
