//! The request timeout: the whole of a request, body included, bounded.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use pin_project_lite::pin_project;
use tower::{Layer, Service};

use crate::error::ApiError;

/// Bounds each request, body included, once its headers are in: past the limit the answer is a
/// JSON 408 and the handler is dropped.
///
/// Kept in place of a library's, which cost more per request: tower's `Timeout` answers a
/// `BoxError`, and axum's router takes only services that cannot fail, so it would need axum's
/// `HandleErrorLayer`, which boxes each request's future and clones the service behind it (a
/// `map_result` cannot turn the error of `poll_ready` into `Infallible`); tower-http's
/// `TimeoutLayer` polls its timer before the answer, so it sets a timer for every request. This
/// one polls the answer first (a timer only when the answer is not ready at once) and boxes
/// nothing.
#[derive(Debug, Clone, Copy)]
pub struct RequestTimeoutLayer(pub Duration);

impl<S> Layer<S> for RequestTimeoutLayer {
    type Service = RequestTimeout<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RequestTimeout {
            inner,
            limit: self.0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct RequestTimeout<S> {
    inner: S,
    limit: Duration,
}

impl<S> Service<Request> for RequestTimeout<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Bounded<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        Bounded {
            inner: tokio::time::timeout(self.limit, self.inner.call(request)),
        }
    }
}

pin_project! {
    /// A request's answer, or a 408 once the limit has passed (the timer is only set when the
    /// answer is not ready at once).
    pub struct Bounded<F> {
        #[pin]
        inner: tokio::time::Timeout<F>,
    }
}

impl<F, E> Future for Bounded<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match ready!(self.project().inner.poll(cx)) {
            Ok(answer) => Poll::Ready(answer),
            Err(_elapsed) => Poll::Ready(Ok(ApiError::RequestTimeout.into_response())),
        }
    }
}
