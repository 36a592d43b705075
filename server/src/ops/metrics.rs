//! Prometheus metrics on their own, non-public address (`--metrics-listen`). Events are counted
//! where they happen with the `metrics` macros (one call each, through the functions here);
//! gauges read from the database are refreshed at each scrape.

use std::net::SocketAddr;
use std::sync::OnceLock;

use anyhow::Context;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

use crate::store::Db;

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed the first time it is asked for (the macros record nothing
/// before that, at no cost).
fn handle() -> anyhow::Result<PrometheusHandle> {
    if let Some(handle) = HANDLE.get() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(
            metrics_exporter_prometheus::Matcher::Full("http_request_duration_seconds".into()),
            &[
                0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
            ],
        )
        .context("metrics: bad histogram buckets")?
        .install_recorder()
        .context("metrics: cannot install the recorder")?;
    Ok(HANDLE.get_or_init(|| handle).clone())
}

/// Whether the recorder is installed (`--metrics-listen`): without it nothing is recorded, and
/// callers can skip the work of naming what they would record.
pub fn enabled() -> bool {
    HANDLE.get().is_some()
}

/// One answered HTTP request, by its matched route.
pub fn request(route: &str, status: u16, seconds: f64) {
    counter!("http_requests_total", "route" => route.to_owned(), "status" => status.to_string())
        .increment(1);
    histogram!("http_request_duration_seconds", "route" => route.to_owned()).record(seconds);
}

/// A contact message stored; `spam` says in which folder.
pub fn message_stored(spam: bool) {
    let kind = if spam { "spam" } else { "real" };
    counter!("contact_messages_stored_total", "kind" => kind).increment(1);
}

/// A notification attempt that failed (it will be retried).
pub fn notification_failed() {
    counter!("notification_attempts_failed_total").increment(1);
}

/// A notification sent.
pub fn notification_sent() {
    counter!("notifications_sent_total").increment(1);
}

/// A sign-in with a wrong e-mail or password.
pub fn sign_in_failed() {
    counter!("sign_in_failures_total").increment(1);
}

/// A sign-in refused because its key is locked.
pub fn sign_in_locked() {
    counter!("sign_in_locked_total").increment(1);
}

/// A "Forgot password?" request dropped because the queue to its workers was full.
pub fn password_reset_shed() {
    counter!("password_reset_requests_shed_total").increment(1);
}

/// A "Forgot password?" request refused (`429`): over its network's limit or the overall
/// ceiling.
pub fn password_reset_limited() {
    counter!("password_reset_requests_limited_total").increment(1);
}

pub fn backup_taken() {
    counter!("backups_total", "result" => "ok").increment(1);
}

pub fn backup_failed() {
    counter!("backups_total", "result" => "failed").increment(1);
}

/// The gauges that are read from the database, set just before a scrape.
async fn refresh(db: &Db) {
    let now = crate::clock::now_ms();
    match db.outbox_stats().await {
        Ok(stats) => {
            gauge!("outbox_pending").set(stats.pending as f64);
            let age = stats
                .oldest_pending_created_at
                .map_or(0, |at| (now - at).max(0));
            gauge!("outbox_oldest_pending_age_seconds").set(age as f64 / 1000.0);
        }
        Err(error) => {
            tracing::warn!(error = %format!("{error:#}"), "metrics: cannot read the outbox")
        }
    }
    match super::backup::last_taken_at(db).await {
        Ok(Some(at)) => {
            gauge!("backup_age_seconds").set((now - at).max(0) as f64 / 1000.0);
        }
        Ok(None) => {}
        Err(error) => {
            tracing::warn!(error = %format!("{error:#}"), "metrics: cannot read the last backup")
        }
    }
    let health = db.health();
    counter!("storage_write_failures_total").absolute(health.failures());
    gauge!("storage_ready").set(if health.is_ready() { 1.0 } else { 0.0 });
    let pool = db.pool_use();
    gauge!("db_pool_connections", "state" => "open").set(f64::from(pool.open));
    gauge!("db_pool_connections", "state" => "idle").set(f64::from(pool.idle));
    gauge!("db_pool_connections", "state" => "in_use")
        .set(f64::from(pool.open.saturating_sub(pool.idle)));
    if let Some(group) = db.group_commit_stats() {
        gauge!("contact_commit_batches").set(group.batches as f64);
        gauge!("contact_commit_batched_messages").set(group.messages as f64);
        gauge!("contact_commit_retried_batches").set(group.retried_batches as f64);
    }
}

#[derive(Clone)]
struct Scrape {
    db: Db,
    handle: PrometheusHandle,
}

async fn scrape(State(scrape): State<Scrape>) -> impl IntoResponse {
    refresh(&scrape.db).await;
    scrape.handle.run_upkeep();
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        scrape.handle.render(),
    )
}

/// Binds the metrics address and returns its listener and router (`GET /metrics`).
pub async fn bind(addr: SocketAddr, db: Db) -> anyhow::Result<(TcpListener, Router)> {
    let handle = handle()?;
    let listener = TcpListener::bind(addr)
        .await
        .with_context(|| format!("metrics-listen: cannot listen on {addr}"))?;
    let router = Router::new()
        .route("/metrics", get(scrape))
        .with_state(Scrape { db, handle });
    Ok((listener, router))
}
