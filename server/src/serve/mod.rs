//! The accept loop shared by every listener (HTTP, HTTPS and the redirect listener), with the
//! limits a public server needs against slow or numerous clients:
//!
//! - at most `max_connections` open at once, and `max_per_client` from one address; beyond
//!   them a new connection is closed as soon as it is accepted, before any byte is read or any
//!   task is spawned;
//! - a TLS handshake, the first request of a connection and each HTTP/1 request's headers must
//!   arrive within the header timeout;
//! - a connection with no request in progress for the idle timeout is shut down gracefully, on
//!   HTTP/2 whatever PINGs arrive (a request is in progress until its answer's body has ended or
//!   was dropped), and closed a second later whether or not the client acknowledges the
//!   shutdown's PING (longer only while its socket's buffer is full, up to the send timeout);
//!   one on which nothing moves either way for it is closed;
//! - a connection whose answers send nothing for the send timeout is closed (a client that does
//!   not read, or an HTTP/2 window left at zero);
//! - at most [`MAX_STREAMS`] requests at once on one HTTP/2 connection;
//! - the whole of a request, body included, is bounded by the request timeout (see
//!   [`RequestTimeoutLayer`]).

mod caps;
mod connection;
mod connections;
mod idle;
mod limits;
mod listener;
mod threads;
mod timeout;

pub use connections::{Answers, Front};
pub use limits::{raise_open_file_limit, Limits, MAX_STREAMS};
pub use listener::run_listener;
pub use threads::on_connection_thread;
pub use timeout::RequestTimeoutLayer;
