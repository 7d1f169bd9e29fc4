//! `/api/account`: register, sign in and out, change the password, delete the account.
//!
//! A guest registers in place: its identity becomes the account, so its games (and later
//! its statistics) stay its own. Passwords are hashed with argon2id (the RustCrypto
//! `argon2` crate's defaults: 19 MiB, 2 passes, 1 lane) off the async runtime. Sign-in is
//! throttled per username and per address with token buckets ([`Throttle`]): past the
//! limit the answer is `429` with the seconds to wait, whether or not the username exists;
//! a wrong username and a wrong password get the same answer. This stands in for the
//! original design's captcha.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::Router;
use axum::extract::Path;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::{Deserialize, Serialize};

use crate::api::ClientAddr;
use crate::error::{ApiJson, Error};
use crate::hub::{Hub, now_ms};
use crate::identity::{
    COOKIE, CurrentSession, IdentityId, Requester, SESSION_DAYS, new_token, session_cookie,
    token_hash,
};
use crate::store::{ApiToken, Registration, StoreError};

const DAY_MS: i64 = 86_400_000;
/// Shortest password.
pub const MIN_PASSWORD: usize = 8;
/// Longest password (argon2 takes any length; this bounds the work a request can ask for).
pub const MAX_PASSWORD: usize = 1024;
/// Longest display name, in characters.
pub const MAX_DISPLAY_NAME: usize = 40;

/// Sign-in attempts allowed: per username, and per client address, each a token bucket.
#[derive(Debug)]
pub struct Throttle {
    per_account: DefaultKeyedRateLimiter<String>,
    per_address: DefaultKeyedRateLimiter<IpAddr>,
    new_guests: DefaultKeyedRateLimiter<IpAddr>,
}

impl Default for Throttle {
    fn default() -> Self {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN));
        Throttle {
            per_account: RateLimiter::keyed(quota(5)),
            per_address: RateLimiter::keyed(quota(20)),
            new_guests: RateLimiter::keyed(quota(120)),
        }
    }
}

impl Throttle {
    /// Takes one new guest identity for `client` (120 a minute per address: a program that
    /// drops its cookie cannot fill the database with guests).
    pub fn new_guest(&self, client: Option<IpAddr>) -> Result<(), Error> {
        let Some(ip) = client else { return Ok(()) };
        let now = DefaultClock::default().now();
        self.new_guests.check_key(&ip).map_err(|not_until| {
            Error::TooManyRequests(format!(
                "too many new sessions from your address; keep the session cookie (try again in {} s)",
                not_until.wait_time_from(now).as_secs() + 1
            ))
        })
    }

    /// Takes one attempt for `username` from `client`, or says how long to wait.
    fn attempt(&self, username: &str, client: Option<IpAddr>) -> Result<(), Error> {
        let now = DefaultClock::default().now();
        let wait = |not_until: governor::NotUntil<_>| {
            let secs = not_until.wait_time_from(now).as_secs() + 1;
            Error::TooManyRequests(format!("too many sign-in attempts; try again in {secs} s"))
        };
        if let Some(ip) = client {
            self.per_address.check_key(&ip).map_err(wait)?;
        }
        self.per_account
            .check_key(&username.to_lowercase())
            .map_err(wait)
    }
}

/// The routes.
pub fn router() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/account/register", post(register))
        .route("/api/account/login", post(login))
        .route("/api/account/logout", post(logout))
        .route("/api/account/logout-all", post(logout_all))
        .route("/api/account/password", post(change_password))
        .route("/api/account", delete(delete_account))
        .route("/api/account/tokens", get(list_tokens).post(create_token))
        .route("/api/account/tokens/{id}", delete(revoke_token))
}

/// `POST /api/account/register`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterRequest {
    username: String,
    password: String,
    display_name: Option<String>,
    email: Option<String>,
}

/// `POST /api/account/login`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LoginRequest {
    username: String,
    password: String,
}

/// `POST /api/account/password` and `DELETE /api/account`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordRequest {
    password: String,
    new_password: Option<String>,
}

/// Who is signed in, as the account routes answer.
#[derive(Debug, Serialize)]
pub struct AccountView {
    /// The identity.
    pub identity: String,
    /// The username.
    pub username: String,
    /// The name shown.
    pub display_name: String,
}

/// Checks a username: 2–20 letters, digits, `_` or `-`.
pub fn check_username(name: &str) -> Result<(), Error> {
    let ok_len = (2..=20).contains(&name.chars().count());
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok_len && ok_chars {
        Ok(())
    } else {
        Err(Error::BadRequest(
            "username: 2 to 20 letters, digits, _ or - (a display name may be anything)".into(),
        ))
    }
}

/// Checks a display name: any text but control characters, 1 to [`MAX_DISPLAY_NAME`]
/// characters once trimmed.
pub fn check_display_name(name: &str) -> Result<String, Error> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_DISPLAY_NAME || name.chars().any(char::is_control) {
        return Err(Error::BadRequest(format!(
            "display_name: 1 to {MAX_DISPLAY_NAME} characters, without control characters"
        )));
    }
    Ok(name.to_string())
}

fn check_password(field: &str, password: &str) -> Result<(), Error> {
    let n = password.chars().count();
    if (MIN_PASSWORD..=MAX_PASSWORD).contains(&n) {
        Ok(())
    } else {
        Err(Error::BadRequest(format!(
            "{field}: at least {MIN_PASSWORD} characters (at most {MAX_PASSWORD})"
        )))
    }
}

/// Hashes a password with argon2id and a fresh salt, off the async runtime.
pub async fn hash_password(password: String) -> Result<String, Error> {
    tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        crate::id::secure_fill(&mut salt);
        let salt = SaltString::encode_b64(&salt).map_err(Error::internal)?;
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(Error::internal)
    })
    .await
    .map_err(Error::internal)?
}

/// Whether `password` matches the stored PHC string, off the async runtime. With no
/// stored hash (an unknown username) a dummy hash is checked, so both take as long.
pub async fn verify_password(password: String, stored: Option<String>) -> Result<bool, Error> {
    tokio::task::spawn_blocking(move || {
        let dummy;
        let stored = match &stored {
            Some(s) => s.as_str(),
            None => {
                dummy = dummy_hash();
                dummy.as_str()
            }
        };
        let parsed = PasswordHash::new(stored).map_err(Error::internal)?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
            && !stored.is_empty())
    })
    .await
    .map_err(Error::internal)?
}

fn dummy_hash() -> String {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY
        .get_or_init(|| {
            let salt = SaltString::encode_b64(b"wuzi-dummy-salt!").expect("a valid salt");
            Argon2::default()
                .hash_password(b"not a password anyone has", &salt)
                .map(|h| h.to_string())
                .unwrap_or_default()
        })
        .clone()
}

/// A JSON answer that also sets (or clears) the session cookie.
fn with_cookie(body: impl Serialize, cookie: String) -> Response {
    let mut res = ApiJson(serde_json::to_value(body).unwrap_or_default()).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        res.headers_mut().insert(header::SET_COOKIE, v);
    }
    res
}

async fn new_session(hub: &Hub, id: &IdentityId) -> Result<String, Error> {
    let token = new_token();
    let now = now_ms();
    hub.store()
        .add_session(
            id.clone(),
            token_hash(&token),
            now,
            now + DAY_MS * SESSION_DAYS,
        )
        .await?;
    Ok(session_cookie(&token, hub.secure_cookies()))
}

async fn register(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    CurrentSession(session): CurrentSession,
    ApiJson(req): ApiJson<RegisterRequest>,
) -> Result<Response, Error> {
    check_username(&req.username)?;
    check_password("password", &req.password)?;
    let display_name = check_display_name(req.display_name.as_deref().unwrap_or(&req.username))?;
    let email = req
        .email
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty());
    if email
        .as_ref()
        .is_some_and(|e| !e.contains('@') || e.chars().count() > 254)
    {
        return Err(Error::BadRequest(
            "email: an address such as name@example.com".into(),
        ));
    }
    let who = who.ok_or_else(|| Error::NotYours("no identity to register".into()))?;
    let password_hash = hash_password(req.password).await?;
    let token = new_token();
    let now = now_ms();
    let reg = Registration {
        identity: who.clone(),
        username: req.username.clone(),
        display_name: display_name.clone(),
        email,
        password_hash,
    };
    match hub
        .store()
        .register(
            reg,
            session.unwrap_or_default(),
            token_hash(&token),
            now,
            now + DAY_MS * SESSION_DAYS,
        )
        .await
    {
        Ok(()) => {}
        Err(StoreError::Taken(t)) if t == req.username => {
            return Err(Error::Conflict(format!(
                "username: {:?} is taken",
                req.username
            )));
        }
        Err(StoreError::Taken(_)) => {
            return Err(Error::Conflict(
                "you are signed in to an account already; sign out to register another".into(),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(identity = %who, "account registered");
    let view = AccountView {
        identity: who.to_string(),
        username: req.username,
        display_name,
    };
    let mut res = with_cookie(view, session_cookie(&token, hub.secure_cookies()));
    *res.status_mut() = StatusCode::CREATED;
    Ok(res)
}

async fn login(
    State(hub): State<Arc<Hub>>,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<LoginRequest>,
) -> Result<Response, Error> {
    hub.throttle().attempt(&req.username, client)?;
    let account = hub.store().account_by_name(req.username.clone()).await?;
    let ok = verify_password(
        req.password,
        account.as_ref().map(|a| a.password_hash.clone()),
    )
    .await?;
    let Some(account) = account.filter(|_| ok) else {
        return Err(Error::Unauthorized("wrong username or password".into()));
    };
    let cookie = new_session(&hub, &account.identity).await?;
    Ok(with_cookie(
        AccountView {
            identity: account.identity.to_string(),
            username: account.username,
            display_name: account.display_name,
        },
        cookie,
    ))
}

fn cleared_cookie(secure: bool) -> String {
    format!(
        "{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    )
}

async fn logout(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    CurrentSession(session): CurrentSession,
) -> Result<Response, Error> {
    if let (Some(who), Some(session)) = (who, session) {
        hub.store().end_sessions(who, Some(session), None).await?;
    }
    Ok(with_cookie(
        serde_json::json!({"signed_out": true}),
        cleared_cookie(hub.secure_cookies()),
    ))
}

async fn logout_all(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
) -> Result<Response, Error> {
    let who = signed_in(&hub, who).await?.identity;
    hub.store().end_sessions(who, None, None).await?;
    Ok(with_cookie(
        serde_json::json!({"signed_out": true}),
        cleared_cookie(hub.secure_cookies()),
    ))
}

/// The account of the requester, or 401.
async fn signed_in(hub: &Hub, who: Option<IdentityId>) -> Result<crate::store::Account, Error> {
    let Some(who) = who else {
        return Err(Error::Unauthorized("sign in first".into()));
    };
    hub.store()
        .account(who)
        .await?
        .ok_or_else(|| Error::Unauthorized("sign in first".into()))
}

async fn change_password(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    CurrentSession(session): CurrentSession,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<PasswordRequest>,
) -> Result<Response, Error> {
    let account = signed_in(&hub, who).await?;
    let new = req
        .new_password
        .ok_or_else(|| Error::BadRequest("new_password: missing".into()))?;
    check_password("new_password", &new)?;
    hub.throttle().attempt(&account.username, client)?;
    if !verify_password(req.password, Some(account.password_hash)).await? {
        return Err(Error::Unauthorized("password: wrong password".into()));
    }
    let hash = hash_password(new).await?;
    hub.store()
        .set_password(account.identity.clone(), hash)
        .await?;
    // Every other session ends: whoever knew the old password is signed out.
    hub.store()
        .end_sessions(account.identity, None, session)
        .await?;
    Ok(ApiJson(serde_json::json!({"changed": true})).into_response())
}

async fn delete_account(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ClientAddr(client): ClientAddr,
    ApiJson(req): ApiJson<PasswordRequest>,
) -> Result<Response, Error> {
    let account = signed_in(&hub, who).await?;
    hub.throttle().attempt(&account.username, client)?;
    if !verify_password(req.password, Some(account.password_hash)).await? {
        return Err(Error::Unauthorized("password: wrong password".into()));
    }
    hub.store().delete_account(account.identity.clone()).await?;
    tracing::info!(identity = %account.identity, "account deleted");
    Ok(with_cookie(
        serde_json::json!({"deleted": true}),
        cleared_cookie(hub.secure_cookies()),
    ))
}

/// `POST /api/account/tokens`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewToken {
    name: String,
}

/// Longest token name.
const MAX_TOKEN_NAME: usize = 40;

async fn create_token(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    ApiJson(req): ApiJson<NewToken>,
) -> Result<Response, Error> {
    let account = signed_in(&hub, who).await?;
    let name = req.name.trim().to_string();
    if name.is_empty()
        || name.chars().count() > MAX_TOKEN_NAME
        || name.chars().any(char::is_control)
    {
        return Err(Error::BadRequest(format!(
            "name: 1 to {MAX_TOKEN_NAME} characters, without control characters"
        )));
    }
    let token = format!("wuzi_{}", new_token());
    let listed = ApiToken {
        id: IdentityId::random().to_string()[..10].to_string(),
        identity: account.identity,
        name,
        created_at: now_ms(),
        last_used_at: None,
    };
    hub.store()
        .add_api_token(listed.clone(), token_hash(&token))
        .await?;
    let mut res = ApiJson(serde_json::json!({
        "id": listed.id,
        "name": listed.name,
        "created_at": listed.created_at,
        "token": token,
    }))
    .into_response();
    *res.status_mut() = StatusCode::CREATED;
    Ok(res)
}

async fn list_tokens(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
) -> Result<ApiJson<Vec<ApiToken>>, Error> {
    let account = signed_in(&hub, who).await?;
    Ok(ApiJson(hub.store().api_tokens(account.identity).await?))
}

async fn revoke_token(
    State(hub): State<Arc<Hub>>,
    Requester(who): Requester,
    Path(id): Path<String>,
) -> Result<ApiJson<serde_json::Value>, Error> {
    let account = signed_in(&hub, who).await?;
    if hub
        .store()
        .revoke_api_token(account.identity, id.clone())
        .await?
    {
        Ok(ApiJson(serde_json::json!({"revoked": true})))
    } else {
        Err(Error::NotFound(format!(
            "no token with id {:?}",
            id.chars().take(40).collect::<String>()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames_and_display_names() {
        for ok in ["ab", "wu_zi-2026", "ABCDEFGHIJKLMNOPQRST"] {
            assert!(check_username(ok).is_ok(), "{ok}");
        }
        for bad in [
            "a",
            "",
            "五子棋",
            "a b",
            "ABCDEFGHIJKLMNOPQRSTU",
            "<script>",
        ] {
            assert!(check_username(bad).is_err(), "{bad}");
        }
        assert_eq!(check_display_name("  五子棋大师  ").unwrap(), "五子棋大师");
        assert!(check_display_name("<script>alert(1)</script>").is_ok());
        assert!(check_display_name("").is_err());
        assert!(check_display_name("a\u{0}b").is_err());
        assert!(check_display_name(&"x".repeat(41)).is_err());
    }

    #[tokio::test]
    async fn passwords_hash_with_argon2id_and_verify() {
        let h = hash_password("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert_ne!(
            h,
            hash_password("correct horse".into()).await.unwrap(),
            "salted"
        );
        assert!(
            verify_password("correct horse".into(), Some(h.clone()))
                .await
                .unwrap()
        );
        assert!(
            !verify_password("wrong horse".into(), Some(h))
                .await
                .unwrap()
        );
        assert!(!verify_password("anything".into(), None).await.unwrap());
    }

    #[test]
    fn the_throttle_counts_per_account_and_per_address() {
        let t = Throttle::default();
        let ip: IpAddr = [10, 0, 0, 1].into();
        for _ in 0..5 {
            t.attempt("Alice", Some(ip)).unwrap();
        }
        let e = t.attempt("alice", Some(ip)).unwrap_err();
        assert!(e.to_string().contains("try again in"), "{e}");
        // Another account from the same address still may, up to the address's limit.
        for i in 0..14 {
            t.attempt(&format!("user{i}"), Some(ip)).unwrap();
        }
        assert!(t.attempt("bob", Some(ip)).is_err());
        assert!(t.attempt("bob", Some([10, 0, 0, 2].into())).is_ok());
        for _ in 0..120 {
            t.new_guest(Some(ip)).unwrap();
        }
        assert!(t.new_guest(Some(ip)).is_err());
        assert!(t.new_guest(Some([10, 0, 0, 2].into())).is_ok());
        assert!(t.new_guest(None).is_ok());
    }
}
