//! The second factor: setup from the QR code the server draws (read back as a phone would),
//! confirmation with a first code, the pending sign-in that allows nothing but a code, codes
//! computed from the server's settable clock, reuse and wrong codes refused and throttled,
//! recovery codes that work once, and turning it off only after the password again.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{
    app_with_second_factor, code_at, fresh_browser, owner_command, recovery_codes, set_cookies,
    spawn_app,
};
use crate::helpers::{EMAIL, PASSWORD};

/// Reads the QR code in an SVG as a phone's camera would: drawn by resvg, then decoded.
pub fn read_qr(svg: &str) -> String {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let scale = 2.0;
    let (w, h) = (
        (size.width() as f32 * scale) as u32,
        (size.height() as f32 * scale) as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(w, h).unwrap();
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(w as usize, h as usize, |x, y| {
        let pixel = pixmap.pixel(x as u32, y as u32).unwrap();
        pixel.red()
    });
    let grids = image.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("the QR code decodes").1
}

#[tokio::test]
async fn setup_shows_a_qr_code_of_the_key_and_a_first_code_turns_it_on() {
    let app = spawn_app().await;
    app.signed_in().await;
    let status = app.second_factor_of(&app.client).await;
    assert_eq!(status, json!({ "enabled": false, "recoveryCodesLeft": 0 }));
    assert_eq!(
        app.get("/api/session/second-factor/qr.svg").await.status(),
        404,
        "no setup yet"
    );

    let setup = app
        .send(Method::POST, "/api/session/second-factor/setup", None)
        .await;
    assert_eq!(setup.status(), 200);
    assert_eq!(setup.headers()["cache-control"], "no-store");
    let setup: Value = setup.json().await.unwrap();
    let secret = setup["secret"].as_str().unwrap();
    let uri = setup["uri"].as_str().unwrap();
    assert!(secret.len() >= 32, "160 bits in base32: {secret}");
    assert!(uri.starts_with("otpauth://totp/"), "{uri}");
    assert!(uri.contains(&format!("secret={secret}")), "{uri}");
    assert_eq!(setup["qrCode"], "/api/session/second-factor/qr.svg");

    // The QR code is ours (same origin, an SVG), and a phone reads the address from it.
    let qr = app.get("/api/session/second-factor/qr.svg").await;
    assert_eq!(qr.status(), 200);
    assert_eq!(qr.headers()["content-type"], "image/svg+xml");
    assert_eq!(qr.headers()["cache-control"], "no-store");
    let scanned = read_qr(&qr.text().await.unwrap());
    assert_eq!(scanned, uri);

    // A wrong first code leaves it off; the right one (from the scanned key) turns it on.
    let wrong = app
        .send(
            Method::POST,
            "/api/session/second-factor/confirm",
            Some(&json!({ "code": "000000" })),
        )
        .await;
    if app.code_now(&scanned) != "000000" {
        assert_eq!(wrong.status(), 422);
        let body: Value = wrong.json().await.unwrap();
        assert_eq!(
            body["error"]["fields"]["code"],
            "That code didn't match. Codes change every 30 seconds."
        );
    }
    let confirmed = app
        .send(
            Method::POST,
            "/api/session/second-factor/confirm",
            Some(&json!({ "code": app.code_now(&scanned) })),
        )
        .await;
    assert_eq!(confirmed.status(), 200);
    let body: Value = confirmed.json().await.unwrap();
    let codes: Vec<&str> = body["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(codes.len(), 10);
    for code in &codes {
        // xxxx-xxxx-xxxx-xxxx in base32: 16 characters of 5 bits, 80 bits.
        assert_eq!(code.len(), 19, "{code}");
        assert_eq!(code.replace('-', "").len(), 16);
    }
    let unique: std::collections::BTreeSet<_> = codes.iter().collect();
    assert_eq!(unique.len(), 10);
    // Only hashes are stored.
    let stored: Vec<String> = sqlx::query_scalar("SELECT code_hash FROM recovery_codes")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert_eq!(stored.len(), 10);
    for code in &codes {
        assert!(stored.iter().all(|h| !h.contains(&code.replace('-', ""))));
    }
    let status = app.second_factor_of(&app.client).await;
    assert_eq!(status, json!({ "enabled": true, "recoveryCodesLeft": 10 }));
    assert_eq!(
        app.get("/api/session/second-factor/qr.svg").await.status(),
        404
    );
    let again = app
        .send(Method::POST, "/api/session/second-factor/setup", None)
        .await;
    assert_eq!(again.status(), 409, "on already");
    app.shutdown().await;
}

#[tokio::test]
async fn with_it_on_the_password_gives_only_a_pending_sign_in_that_a_code_completes() {
    let (app, uri, _) = app_with_second_factor().await;

    let browser = fresh_browser();
    let pending = app.sign_in_with(&browser).await;
    assert_eq!(pending.status(), 202);
    let cookies = set_cookies(&pending);
    assert!(
        !cookies.iter().any(|c| c.starts_with("portfolio_session=")),
        "no session yet: {cookies:?}"
    );
    let cookie = cookies
        .iter()
        .find(|c| c.starts_with("portfolio_pending="))
        .expect("the pending sign-in's cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=300"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    let body: Value = pending.json().await.unwrap();
    assert_eq!(body, json!({ "secondFactorRequired": true }));
    // Stored only as a hash.
    let token = cookie.split(';').next().unwrap().split_once('=').unwrap().1;
    let stored: String = sqlx::query_scalar("SELECT token_hash FROM pending_sign_ins")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_ne!(stored, token);

    // It allows nothing but the code.
    for path in ["/api/session", "/api/messages", "/api/sessions"] {
        assert_eq!(
            app.send_with(&browser, Method::GET, path, None)
                .await
                .status(),
            401,
            "{path}"
        );
    }

    let code = app.code_now(&uri);
    let signed_in = app.send_code(&browser, &code).await;
    assert_eq!(signed_in.status(), 200);
    let cookies = set_cookies(&signed_in);
    assert!(cookies.iter().any(|c| c.starts_with("portfolio_session=")));
    assert!(cookies
        .iter()
        .any(|c| c.starts_with("portfolio_pending=;") && c.contains("Max-Age=0")));
    assert_eq!(
        signed_in.json::<Value>().await.unwrap(),
        json!({ "email": EMAIL })
    );
    let me = app
        .send_with(&browser, Method::GET, "/api/session", None)
        .await;
    assert_eq!(me.status(), 200);
    let mine = app.current_session_of(&browser).await;
    assert_eq!(mine["method"], "password+code");

    // The pending sign-in worked once.
    let replay = reqwest::Client::new()
        .post(app.url("/api/session/code"))
        .header("Sec-Fetch-Site", "same-origin")
        .header("Cookie", format!("portfolio_pending={token}"))
        .json(&json!({ "code": app.code_now(&uri) }))
        .send()
        .await
        .unwrap();
    assert_eq!(replay.status(), 401);
    let body: Value = replay.json().await.unwrap();
    assert_eq!(body["error"]["code"], "sign_in_expired");
    app.shutdown().await;
}

#[tokio::test]
async fn a_used_code_is_refused_and_the_next_steps_code_works() {
    let (app, uri, _) = app_with_second_factor().await;

    let first = app.pending_browser().await;
    let code = app.code_now(&uri);
    assert_eq!(app.send_code(&first, &code).await.status(), 200);

    // The same code again, in the same step, from another browser: refused.
    let second = app.pending_browser().await;
    let reused = app.send_code(&second, &code).await;
    assert_eq!(reused.status(), 422);
    let body: Value = reused.json().await.unwrap();
    assert_eq!(
        body["error"]["fields"]["code"],
        "That code didn't match. Codes change every 30 seconds."
    );
    // A problem said as a sentence is the whole message, without the field's name before it.
    assert_eq!(
        body["error"]["message"],
        "That code didn't match. Codes change every 30 seconds."
    );
    // Nor a code of an earlier step.
    let earlier = code_at(&uri, app.clock.now_ms() - 30_000);
    assert_eq!(app.send_code(&second, &earlier).await.status(), 422);

    // Thirty seconds on, the app shows a new code, which works.
    app.advance(30);
    let next = app.code_now(&uri);
    assert_ne!(next, code);
    assert_eq!(app.send_code(&second, &next).await.status(), 200);
    app.shutdown().await;
}

#[tokio::test]
async fn wrong_codes_are_throttled_like_passwords() {
    let (app, uri, _) = app_with_second_factor().await;

    let browser = app.pending_browser().await;
    let right = app.code_now(&uri);
    let wrong = if right == "123456" {
        "654321"
    } else {
        "123456"
    };
    let mut statuses = Vec::new();
    for _ in 0..6 {
        statuses.push(app.send_code(&browser, wrong).await.status().as_u16());
    }
    assert_eq!(statuses[..5], [422; 5], "{statuses:?}");
    assert_eq!(statuses[5], 429, "{statuses:?}");
    // While locked, even the right code waits.
    let locked = app.send_code(&browser, &right).await;
    assert_eq!(locked.status(), 429);
    let wait: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(wait >= 1, "{wait}");
    let body: Value = locked.json().await.unwrap();
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Too many wrong codes."),
        "{body}"
    );
    // The password's own counter is apart: the password still gets to its check.
    app.pending_browser().await;
    app.shutdown().await;
}

#[tokio::test]
async fn a_recovery_code_works_once_and_the_pending_sign_in_expires_in_five_minutes() {
    let (app, _, codes) = app_with_second_factor().await;

    let browser = app.pending_browser().await;
    // Typed loosely: upper case, without the dashes.
    let typed = codes[0].replace('-', "").to_uppercase();
    assert_eq!(app.send_code(&browser, &typed).await.status(), 200);
    let status = app.second_factor_of(&browser).await;
    assert_eq!(status["recoveryCodesLeft"], 9);

    let again = app.pending_browser().await;
    assert_eq!(app.send_code(&again, &codes[0]).await.status(), 422);
    // Five minutes on, the pending sign-in is gone.
    app.advance(5 * 60 + 1);
    let late = app.send_code(&again, &codes[1]).await;
    assert_eq!(late.status(), 401);
    let body: Value = late.json().await.unwrap();
    assert_eq!(body["error"]["code"], "sign_in_expired");
    app.shutdown().await;
}

#[tokio::test]
async fn turning_it_off_and_new_recovery_codes_ask_for_the_password_again() {
    let (app, _, old_codes) = app_with_second_factor().await;
    // Within five minutes of signing in, the session may change it; later, not.
    app.advance(6 * 60);
    let refused = app
        .send(Method::DELETE, "/api/session/second-factor", None)
        .await;
    assert_eq!(refused.status(), 403);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "reauthentication_required");
    let refused = app
        .send(
            Method::POST,
            "/api/session/second-factor/recovery-codes",
            None,
        )
        .await;
    assert_eq!(refused.status(), 403);

    let wrong = app
        .send(
            Method::POST,
            "/api/session/reauth",
            Some(&json!({ "password": "not-the-password-at-all" })),
        )
        .await;
    assert_eq!(wrong.status(), 422);
    let confirmed = app
        .send(
            Method::POST,
            "/api/session/reauth",
            Some(&json!({ "password": PASSWORD })),
        )
        .await;
    assert_eq!(confirmed.status(), 204);

    let fresh = app
        .send(
            Method::POST,
            "/api/session/second-factor/recovery-codes",
            None,
        )
        .await;
    assert_eq!(fresh.status(), 200);
    let body: Value = fresh.json().await.unwrap();
    let new_codes = recovery_codes(&body);
    assert_eq!(new_codes.len(), 10);
    // The old codes stop working, the new ones work.
    let browser = app.pending_browser().await;
    assert_eq!(app.send_code(&browser, &old_codes[0]).await.status(), 422);
    assert_eq!(app.send_code(&browser, &new_codes[0]).await.status(), 200);

    assert_eq!(
        app.send(Method::DELETE, "/api/session/second-factor", None)
            .await
            .status(),
        204
    );
    let status = app.second_factor_of(&app.client).await;
    assert_eq!(status["enabled"], false);
    // The password alone signs in again.
    assert_eq!(app.sign_in_with(&fresh_browser()).await.status(), 200);
    // Setting it up again asks for the password again too (issue 43: a stolen session must not
    // set up a second factor of its own).
    app.advance(5 * 60);
    let setup = app
        .send(Method::POST, "/api/session/second-factor/setup", None)
        .await;
    assert_eq!(setup.status(), 403);
    let body: Value = setup.json().await.unwrap();
    assert_eq!(body["error"]["code"], "reauthentication_required");
    app.shutdown().await;
}

#[tokio::test]
async fn the_command_line_switches_the_second_factor_off() {
    let (app, _, _) = app_with_second_factor().await;
    app.pending_browser().await;

    let output = owner_command(&app, &["second-factor", "off"]);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("The second factor is off"), "{said}");
    assert_eq!(app.sign_in_with(&fresh_browser()).await.status(), 200);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM recovery_codes")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(left, 0);

    let output = owner_command(&app, &["second-factor", "off"]);
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("was not on"));
    app.shutdown().await;
}
