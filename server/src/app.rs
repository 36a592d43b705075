//! Builds the application from its settings: the database, the listener (port 0 works) and
//! the router; then serves until Ctrl-C or SIGTERM, letting in-flight requests finish.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use tokio::net::TcpListener;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tower_http::LatencyUnit;
use tracing::Level;

use crate::config::Settings;
use crate::state::AppState;
use crate::store;

pub struct Application {
    listener: TcpListener,
    router: Router,
    state: AppState,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        let db = store::connect(&settings.database.url).await?;
        let listener = TcpListener::bind(settings.listen)
            .await
            .with_context(|| format!("listen: cannot listen on {}", settings.listen))?;
        let state = AppState {
            db,
            contact: Arc::new(crate::contact::ContactState::new(&settings)),
            auth: Arc::new(crate::auth::AuthState::new(&settings)),
            settings: Arc::new(settings),
        };
        crate::auth::bootstrap(&state).await?;
        crate::contact::start(&state)?;

        let router = crate::http::router(state.clone()).layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_request(())
                .on_response(
                    DefaultOnResponse::new()
                        .level(Level::INFO)
                        .latency_unit(LatencyUnit::Millis),
                ),
        );
        Ok(Self {
            listener,
            router,
            state,
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
        tracing::info!("listening on http://{addr}");
        let db = self.state.db.clone();
        let contact = self.state.contact.clone();
        axum::serve(
            self.listener,
            self.router
                .into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(stop)
        .await
        .context("the server stopped with an error")?;
        contact.stop();
        db.close().await;
        tracing::info!("stopped; database closed");
        Ok(())
    }
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
