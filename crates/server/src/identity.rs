//! Who is asking: identities and their sessions.
//!
//! Playing needs no account: the first request that changes something (creating a game,
//! say) from a browser without a session makes a **guest** identity and a session for it,
//! sent back as an HttpOnly, SameSite=Lax cookie ([`COOKIE`]). The cookie holds a 256-bit
//! random token; the server keeps only its SHA-256. Sessions last [`SESSION_DAYS`] days and
//! are renewed when used in their second half. Reading (a game, its WebSocket) needs no
//! identity: whoever opens a link without owning a seat is a spectator.
//!
//! The identity of a request is put in its extensions as a [`Requester`] by [`identify`].

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::hub::{Hub, now_ms};
use crate::id::secure_fill;

/// The session cookie's name.
pub const COOKIE: &str = "wuzi_session";
/// How long a session lasts without use.
pub const SESSION_DAYS: i64 = 365;
const DAY_MS: i64 = 86_400_000;

/// Characters of an identity id (as game ids: no look-alikes).
const ALPHABET: &[u8] = b"23456789abcdefghjkmnpqrstuvwxyz";
/// Length of an identity id (16 of 31 characters: 79 random bits).
const LEN: usize = 16;

/// An identity's id, e.g. `g7k2m9x3p4qa8r5t`. Public (games show who owns their seats);
/// the session token is the secret.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IdentityId(String);

impl IdentityId {
    /// A fresh random id.
    #[must_use]
    pub fn random() -> IdentityId {
        let limit = (256 / ALPHABET.len() * ALPHABET.len()) as u8;
        let mut id = String::with_capacity(LEN);
        while id.len() < LEN {
            let mut bytes = [0u8; 24];
            secure_fill(&mut bytes);
            for b in bytes {
                if b < limit && id.len() < LEN {
                    id.push(ALPHABET[usize::from(b) % ALPHABET.len()] as char);
                }
            }
        }
        IdentityId(id)
    }

    /// The id as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for IdentityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for IdentityId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s.len() == LEN && s.bytes().all(|b| ALPHABET.contains(&b)) {
            Ok(IdentityId(s.to_string()))
        } else {
            Err(format!(
                "{:?} is not an identity id",
                s.chars().take(40).collect::<String>()
            ))
        }
    }
}

impl TryFrom<String> for IdentityId {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<IdentityId> for String {
    fn from(id: IdentityId) -> String {
        id.0
    }
}

/// A new session token: 256 random bits as 64 hex digits.
#[must_use]
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    secure_fill(&mut bytes);
    hex(&bytes)
}

/// What the server stores of a token: its SHA-256, as hex.
#[must_use]
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The value of cookie `name` in the request's `Cookie` headers.
#[must_use]
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
}

/// The token of an `Authorization: Bearer` header.
#[must_use]
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
}

/// The `Set-Cookie` value for a session token (`Secure` when the site is served over
/// HTTPS).
#[must_use]
pub fn session_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={token}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{}",
        SESSION_DAYS * 86_400,
        if secure { "; Secure" } else { "" }
    )
}

/// The identity behind a request, if any (see [`identify`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requester(pub Option<IdentityId>);

impl<S: Send + Sync> FromRequestParts<S> for Requester {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(parts
            .extensions
            .get::<Requester>()
            .cloned()
            .unwrap_or_default())
    }
}

/// The hash of the session token the request came with, when it names a live session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurrentSession(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for CurrentSession {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(parts
            .extensions
            .get::<CurrentSession>()
            .cloned()
            .unwrap_or_default())
    }
}

/// The middleware: finds the request's identity from its session cookie (renewing the
/// session when due) and, for a request that changes something without one, makes a
/// guest identity and sends its cookie with the answer.
pub async fn identify(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    let now = now_ms();
    let token = cookie(req.headers(), COOKIE).map(str::to_owned);
    let mut who = None;
    let mut current = None;
    // A program's personal API token: it names its account or nothing (never a guest).
    if let Some(bearer) = bearer(req.headers()) {
        match hub
            .store()
            .api_token_identity(token_hash(bearer), now)
            .await
        {
            Ok(Some(id)) => {
                req.extensions_mut().insert(Requester(Some(id)));
                req.extensions_mut().insert(CurrentSession(None));
                return next.run(req).await;
            }
            Ok(None) => {
                return crate::Error::Unauthorized("the API token is unknown or revoked".into())
                    .into_response();
            }
            Err(e) => return crate::Error::from(e).into_response(),
        }
    }
    if let Some(token) = &token {
        let hash = token_hash(token);
        match hub
            .store()
            .session(hash.clone(), now, DAY_MS * SESSION_DAYS)
            .await
        {
            Ok(found) => {
                current = found.is_some().then_some(hash);
                who = found;
            }
            Err(e) => return crate::Error::from(e).into_response(),
        }
    }
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let mut set_cookie = None;
    if who.is_none() && changes {
        let client = req
            .extensions()
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0.ip());
        if let Err(e) = hub.throttle().new_guest(client) {
            return e.into_response();
        }
        let id = IdentityId::random();
        let token = new_token();
        let expires = now + DAY_MS * SESSION_DAYS;
        if let Err(e) = hub
            .store()
            .create_guest(id.clone(), token_hash(&token), now, expires)
            .await
        {
            return crate::Error::from(e).into_response();
        }
        set_cookie = HeaderValue::from_str(&session_cookie(&token, hub.secure_cookies())).ok();
        current = Some(token_hash(&token));
        who = Some(id);
    }
    req.extensions_mut().insert(Requester(who));
    req.extensions_mut().insert(CurrentSession(current));
    let mut res = next.run(req).await;
    // A handler that set the session cookie itself (sign-in, sign-out) has the last word.
    if let Some(c) = set_cookie
        && !res.headers().contains_key(header::SET_COOKIE)
    {
        res.headers_mut().append(header::SET_COOKIE, c);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_ids_and_cookies() {
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_ne!(t, new_token());
        assert_eq!(token_hash(&t).len(), 64);
        assert_ne!(token_hash(&t), t);
        let id = IdentityId::random();
        assert_eq!(id.as_str().parse::<IdentityId>().unwrap(), id);
        assert!("short".parse::<IdentityId>().is_err());
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; wuzi_session=abc ; b=2"),
        );
        assert_eq!(cookie(&h, COOKIE), Some("abc"));
        assert_eq!(cookie(&h, "c"), None);
        let c = session_cookie("abc", false);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && !c.contains("Secure"));
        assert!(session_cookie("abc", true).ends_with("; Secure"));
    }
}
