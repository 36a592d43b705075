//! Runs a route's work on the application's runtime. Connections are served on threads of their
//! own, each with a single-threaded runtime ([`crate::serve`]); the site's pages and files are
//! answered there from memory, but whatever may reach the database must run where its pools were
//! opened: a pooled connection's socket belongs to the runtime that opened it, and would break
//! when a connection thread's runtime ends. So the API's routes (and the media, the resume and
//! the health checks) are spawned on the application's runtime and their answer awaited; the
//! task is aborted if the request is dropped first (the client left, or its time ran out), as
//! the handler would have been.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use tokio::runtime::Handle;
use tokio::task::JoinHandle;
use tower::{Layer, Service};

use crate::error::ApiError;

/// Hands each request to the runtime that was current when the layer was made.
#[derive(Debug, Clone)]
pub struct AppRuntimeLayer(Handle);

impl AppRuntimeLayer {
    /// The layer for the runtime the caller runs on (the application's, at start-up).
    pub fn current() -> Self {
        Self(Handle::current())
    }
}

impl<S> Layer<S> for AppRuntimeLayer {
    type Service = OnAppRuntime<S>;

    fn layer(&self, inner: S) -> Self::Service {
        OnAppRuntime {
            inner,
            runtime: self.0.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct OnAppRuntime<S> {
    inner: S,
    runtime: Handle,
}

type Answer = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

impl<S> Service<Request> for OnAppRuntime<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Answer;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let answer = self.inner.call(request);
        if !crate::serve::on_connection_thread() {
            return Box::pin(answer);
        }
        let task = AbortOnDrop(self.runtime.spawn(answer));
        Box::pin(async move {
            match task.await {
                Ok(answer) => answer,
                Err(error) => {
                    // A handler that panicked: the request gets the opaque 500, the log the cause.
                    let error = anyhow::anyhow!("the request's task failed: {error}");
                    Ok(ApiError::Unexpected(error).into_response())
                }
            }
        })
    }
}

/// A task's handle that aborts the task when dropped before it finished.
struct AbortOnDrop<T>(JoinHandle<T>);

impl<T> Future for AbortOnDrop<T> {
    type Output = Result<T, tokio::task::JoinError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use axum::Router;
    use tokio::net::TcpListener;

    use super::AppRuntimeLayer;
    use crate::config::LimitSettings;
    use crate::serve::{on_connection_thread, run_listener, Limits};

    /// The name of the thread that answered, and whether it is a connection thread.
    fn where_answered() -> String {
        let thread = std::thread::current();
        format!(
            "{} {}",
            thread.name().unwrap_or("unnamed"),
            on_connection_thread()
        )
    }

    #[tokio::test]
    async fn connections_spread_over_their_threads_and_routes_run_on_the_application_runtime() {
        use axum::routing::get;

        let router = Router::new()
            .route("/app", get(|| async { where_answered() }))
            .route_layer(AppRuntimeLayer::current())
            .fallback(|| async { where_answered() });
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let mut limits = Limits::from(&LimitSettings::default());
        limits.connection_threads = 2;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(run_listener(
            listener,
            router,
            None,
            limits,
            async {
                let _ = stopped.await;
            },
            Duration::from_secs(5),
        ));
        let the_test = std::thread::current().name().map(str::to_owned);

        // Four clients, one connection each, kept open: two on each thread, whatever order the
        // kernel hands them in, and each connection's requests on the thread it was given to.
        let mut clients = Vec::new();
        let mut counts = HashMap::<String, usize>::new();
        let answer = |client: &reqwest::Client, path: &str| {
            let request = client.get(format!("http://{address}{path}")).send();
            async move { request.await.unwrap().text().await.unwrap() }
        };
        for _ in 0..4 {
            let client = reqwest::Client::new();
            let first = answer(&client, "/").await;
            for _ in 0..3 {
                let again = answer(&client, "/page").await;
                assert_eq!(again, first, "a connection stays on its thread");
            }
            assert_eq!(
                answer(&client, "/app").await,
                format!("{} false", the_test.as_deref().unwrap_or("unnamed")),
                "a route runs on the application's runtime (here, the test's)"
            );
            *counts.entry(first).or_default() += 1;
            clients.push(client);
        }
        assert_eq!(
            counts,
            HashMap::from([
                ("connections-0 true".to_owned(), 2),
                ("connections-1 true".to_owned(), 2),
            ]),
            "the site is answered on the connection threads, shared evenly"
        );

        // Stopping ends the threads too: their connections are closed and the server returns.
        stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(10), server)
            .await
            .expect("the server stops")
            .unwrap();
        let gone = reqwest::Client::new()
            .get(format!("http://{address}/"))
            .send()
            .await;
        assert!(gone.is_err(), "nothing listens once stopped");
        drop(clients);
    }
}
