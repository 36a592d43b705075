//! What a listener answers with (its [`Answers`]), what its connections share, and one connection served to its end (a TLS
//! handshake first, with TLS).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request};
use axum::response::Response;
use axum::Router;
use futures_util::future::Either;
use hyper_util::rt::TokioExecutor;
use hyper_util::server::conn::auto;
use tokio::net::TcpStream;
use tokio::sync::{watch, OwnedSemaphorePermit};
use tower::ServiceExt;

use super::caps::ClientSlot;
use super::connection::{drive, StreamGuard, Streams, Tracked};
use super::idle::Idle;
use super::limits::Limits;

/// Answers some requests itself, before the router sees them: the main listener's site, from
/// memory ([`crate::http::front`]). What it leaves (`None`) goes to the router.
pub trait Front: Send + Sync + 'static {
    fn answer(
        &self,
        request: &Request<hyper::body::Incoming>,
        peer: SocketAddr,
    ) -> Option<Response>;
}

/// What a listener answers with: its router, and the [`Front`] before it, if any.
pub struct Answers {
    pub router: Router,
    pub front: Option<Arc<dyn Front>>,
}

impl From<Router> for Answers {
    fn from(router: Router) -> Self {
        Self {
            router,
            front: None,
        }
    }
}

/// What every connection of a listener shares.
pub(super) struct Connections {
    pub(super) router: Router,
    pub(super) front: Option<Arc<dyn Front>>,
    pub(super) builder: auto::Builder<TokioExecutor>,
    pub(super) tls: Option<crate::tls::Acceptor>,
    pub(super) limits: Limits,
}

/// What a connection holds until it ends: its places under the listener's cap and its client's.
pub(super) type Held = (OwnedSemaphorePermit, Option<ClientSlot>);

impl Connections {
    /// Serves one accepted connection to its end (a TLS handshake first, with TLS).
    pub(super) async fn run_connection(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        held: Held,
        stopped: watch::Receiver<bool>,
    ) {
        let _held = held;
        let limits = &self.limits;
        let streams = Arc::new(Streams::new(limits));
        let service = {
            let streams = streams.clone();
            let router = self.router.clone();
            let front = self.front.clone();
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                let stream = StreamGuard::open(streams.clone());
                let answer = match front
                    .as_ref()
                    .and_then(|front| front.answer(&request, peer))
                {
                    Some(response) => {
                        Either::Left(std::future::ready(Ok::<_, Infallible>(response)))
                    }
                    None => {
                        request.extensions_mut().insert(ConnectInfo(peer));
                        Either::Right(router.clone().oneshot(request))
                    }
                };
                async move {
                    let response = answer.await?;
                    let stream = stream.answering();
                    Ok::<_, std::convert::Infallible>(response.map(|body| Tracked {
                        inner: body,
                        stream: Some(stream),
                    }))
                }
            })
        };
        let io = Idle::new(stream, limits, streams.clone());
        match &self.tls {
            None => drive(&self.builder, io, service, &streams, limits, stopped).await,
            Some(acceptor) => {
                let handshake = acceptor.accept(io);
                let Ok(Some(io)) = tokio::time::timeout(limits.header_timeout, handshake).await
                else {
                    return;
                };
                drive(&self.builder, io, service, &streams, limits, stopped).await;
            }
        }
    }
}
