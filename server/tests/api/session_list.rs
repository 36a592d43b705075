//! Sessions the owner can see: `GET /api/sessions` lists the signed-in browsers (family, device
//! class, how and when each signed in, when last active; no address), and
//! `DELETE /api/sessions/{id}` signs one out.

use reqwest::Method;

use crate::helpers::{set_cookies, spawn_app, TestApp};
use crate::helpers::{EMAIL, PASSWORD};

const FIREFOX: &str =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";
const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/// A browser of its own, sending this User-Agent.
pub fn browser(user_agent: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .user_agent(user_agent)
        .build()
        .unwrap()
}

/// A fresh server, and the owner signed in from Firefox on a laptop.
async fn signed_in_laptop() -> (TestApp, reqwest::Client) {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let laptop = browser(FIREFOX);
    assert_eq!(app.sign_in_with(&laptop).await.status(), 200);
    (app, laptop)
}

#[tokio::test]
async fn the_list_shows_two_browsers_and_signing_one_out_ends_it() {
    let (app, laptop) = signed_in_laptop().await;
    let phone = browser(IPHONE);
    assert_eq!(app.sign_in_with(&phone).await.status(), 200);

    let list = app.sessions_of(&laptop).await;
    let sessions = list["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2, "{list}");
    let mine = sessions.iter().find(|s| s["current"] == true).unwrap();
    let other = sessions.iter().find(|s| s["current"] == false).unwrap();
    assert_eq!(mine["browser"], "Firefox");
    assert_eq!(mine["device"], "desktop");
    assert_eq!(mine["method"], "password");
    assert_eq!(other["browser"], "Safari");
    assert_eq!(other["device"], "phone");
    for session in sessions {
        assert!(session["signedInAt"].as_i64().unwrap() > 0);
        assert!(
            session["lastActiveAt"].as_i64().unwrap() >= session["signedInAt"].as_i64().unwrap()
        );
        let id = session["id"].as_str().unwrap();
        assert_eq!(id.len(), 32, "{id}");
        let text = session.to_string();
        assert!(!text.contains("127.0.0.1"), "no address: {text}");
    }
    // The id is neither the token nor the stored hash.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    for session in sessions {
        let id = session["id"].as_str().unwrap();
        assert!(stored.iter().all(|hash| !hash.contains(id)), "{id}");
    }

    // The laptop signs the phone out: the phone's next request is refused.
    let id = other["id"].as_str().unwrap();
    let out = app.sign_out_session(&laptop, id).await;
    assert_eq!(out.status(), 204);
    assert!(
        out.headers().get("set-cookie").is_none(),
        "another session's sign-out leaves this browser's cookie"
    );
    assert_eq!(
        app.send_with(&phone, Method::GET, "/api/session", None)
            .await
            .status(),
        401
    );
    assert_eq!(
        app.send_with(&laptop, Method::GET, "/api/session", None)
            .await
            .status(),
        200
    );
    let list = app.sessions_of(&laptop).await;
    assert_eq!(list["sessions"].as_array().unwrap().len(), 1);

    // Signing the same session out again, or an unknown id, is a 404.
    for missing in [id, "nonsense"] {
        let again = app.sign_out_session(&laptop, missing).await;
        assert_eq!(again.status(), 404);
    }
    app.shutdown().await;
}

#[tokio::test]
async fn signing_out_the_current_session_from_the_list_signs_this_browser_out() {
    let (app, laptop) = signed_in_laptop().await;
    let list = app.sessions_of(&laptop).await;
    let id = list["sessions"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(list["sessions"][0]["current"], true);

    let out = app.sign_out_session(&laptop, &id).await;
    assert_eq!(out.status(), 204);
    let cleared = set_cookies(&out);
    assert!(
        cleared
            .iter()
            .any(|c| c.starts_with("portfolio_session=;") && c.contains("Max-Age=0")),
        "{cleared:?}"
    );
    assert_eq!(app.sessions_in_db().await, 0);
    assert_eq!(
        app.send_with(&laptop, Method::GET, "/api/sessions", None)
            .await
            .status(),
        401
    );
    app.shutdown().await;
}

#[tokio::test]
async fn the_list_and_its_deletion_need_a_session_and_the_sites_own_pages() {
    let (app, laptop) = signed_in_laptop().await;
    // Another browser (the app's own client) has no session.
    assert_eq!(app.get("/api/sessions").await.status(), 401);
    let id = app.sessions_of(&laptop).await["sessions"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let forged = laptop
        .delete(app.url(&format!("/api/sessions/{id}")))
        .header("Sec-Fetch-Site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 403);
    assert_eq!(app.sessions_in_db().await, 1);
    app.shutdown().await;
}
