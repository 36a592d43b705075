//! The auth flows as the handlers reach them: their context from the application's state (the
//! contact feature's mailer as the notices' outbox, the sign-in metrics), the request's
//! User-Agent, and a finished sign-in as its answer.

use axum::http::header::{SET_COOKIE, USER_AGENT};
use axum::http::HeaderMap;
use axum::response::{AppendHeaders, IntoResponse, Response};

use crate::auth::flows::sign_in::SignedIn;
use crate::auth::flows::{Counters, Ctx, Outbox};
use crate::contact::notify::Mailer;
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;

/// What the auth flows take from the application's state.
pub fn flows(state: &AppState) -> Ctx<'_> {
    Ctx {
        db: &state.db,
        settings: &state.settings,
        auth: &state.auth,
        outbox: state
            .contact
            .mailer
            .get()
            .map(|mailer| mailer as &dyn Outbox),
        counters: Counters {
            sign_in_failed: crate::ops::metrics::sign_in_failed,
            sign_in_locked: crate::ops::metrics::sign_in_locked,
        },
    }
}

impl Outbox for Mailer {
    fn send_notice(&self, subject: &str, body: String) {
        self.send_notice_in_background(subject, body);
    }
}

/// The request's User-Agent, empty when it has none (or one that is not text).
pub fn user_agent(headers: &HeaderMap) -> &str {
    headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Signed in: the owner, with the sign-in's cookies.
impl IntoResponse for SignedIn {
    fn into_response(self) -> Response {
        let cookies = self.cookies.into_iter().map(|value| (SET_COOKIE, value));
        (AppendHeaders(cookies), ApiJson(self.owner)).into_response()
    }
}
