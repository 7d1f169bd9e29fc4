//! Checks made before any handler: cross-site requests and request bodies.
//!
//! A browser sends some requests to any site without asking it first (a form's POST, a
//! `text/plain` fetch, a WebSocket): a page on another site could otherwise act on a
//! wuzi the user has open. So every unsafe request (anything but GET, HEAD, OPTIONS) and
//! every WebSocket upgrade that says where it comes from must come from this server's
//! own origin: its `Origin` must name the host the request was sent to, and without an
//! `Origin` its `Sec-Fetch-Site` must not be `cross-site`. Requests that say neither
//! (scripts, `curl`) are let through. Every request with a body must be JSON
//! (`Content-Type: application/json`), and a body declared larger than
//! [`crate::BODY_LIMIT`] is refused before it is read.

use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::Error;

/// The middleware (see the module doc).
pub async fn check(req: Request, next: Next) -> Response {
    let body_hint = hyper::body::Body::size_hint(req.body()).lower();
    let limit = crate::body_limit(req.uri().path());
    match refusal(req.method(), req.headers(), body_hint, limit) {
        Some(e) => e.into_response(),
        None => next.run(req).await,
    }
}

/// Why a request with this method and these headers is refused, if it is; `body_hint`
/// is the least its body is known to hold, `limit` the most it may hold.
#[must_use]
pub fn refusal(
    method: &Method,
    headers: &HeaderMap,
    body_hint: u64,
    limit: usize,
) -> Option<Error> {
    let unsafe_method = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    if (unsafe_method || upgrade)
        && let Some(why) = cross_site(headers)
    {
        return Some(Error::CrossSite(why));
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Some(Error::TooLarge(format!(
            "the request body is too large (at most {} KiB)",
            limit / 1024
        )));
    }
    let has_body = declared.is_some_and(|n| n > 0)
        || body_hint > 0
        || headers.contains_key(header::TRANSFER_ENCODING);
    if has_body && !is_json(headers) {
        return Some(Error::UnsupportedMediaType(
            "a request body must be JSON, sent with Content-Type: application/json".into(),
        ));
    }
    None
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Why the request comes from another site, if it does.
fn cross_site(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let authority = origin
            .split_once("://")
            .map(|(_, rest)| rest.trim_end_matches('/'));
        return match (authority, host) {
            (Some(a), Some(h)) if a.eq_ignore_ascii_case(h) => None,
            _ => Some(format!(
                "cross-site request refused: it comes from {:?}, not from this server",
                origin.chars().take(100).collect::<String>()
            )),
        };
    }
    let site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    (site == Some("cross-site"))
        .then(|| "cross-site request refused: it comes from another site".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn same_origin_passes_and_other_sites_do_not() {
        let post = Method::POST;
        let ok = |h: &[(&str, &str)]| refusal(&post, &headers(h), 0, crate::BODY_LIMIT).is_none();
        assert!(ok(&[("host", "127.0.0.1:8080")]));
        assert!(ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ]));
        assert!(ok(&[
            ("host", "wuzi.example"),
            ("origin", "https://WUZI.example")
        ]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example")
        ]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8081")
        ]));
        assert!(!ok(&[("host", "127.0.0.1:8080"), ("origin", "null")]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8080"),
            ("sec-fetch-site", "cross-site")
        ]));
        assert!(ok(&[
            ("host", "127.0.0.1:8080"),
            ("sec-fetch-site", "same-origin")
        ]));
        // A GET is safe, but a WebSocket upgrade from another site is not.
        let evil = headers(&[("host", "a:1"), ("origin", "http://evil.example")]);
        assert!(refusal(&Method::GET, &evil, 0, crate::BODY_LIMIT).is_none());
        let mut ws = evil.clone();
        ws.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        assert!(matches!(
            refusal(&Method::GET, &ws, 0, crate::BODY_LIMIT),
            Some(Error::CrossSite(_))
        ));
    }

    #[test]
    fn bodies_must_be_json_and_small() {
        let post = Method::POST;
        let r = |h: &[(&str, &str)]| refusal(&post, &headers(h), 0, crate::BODY_LIMIT);
        assert!(r(&[("content-length", "0")]).is_none());
        assert!(
            r(&[
                ("content-length", "2"),
                ("content-type", "application/json")
            ])
            .is_none()
        );
        assert!(
            r(&[
                ("content-length", "2"),
                ("content-type", "application/json; charset=utf-8")
            ])
            .is_none()
        );
        assert!(matches!(
            r(&[("content-length", "2"), ("content-type", "text/plain")]),
            Some(Error::UnsupportedMediaType(_))
        ));
        assert!(matches!(
            r(&[("content-length", "2")]),
            Some(Error::UnsupportedMediaType(_))
        ));
        assert!(matches!(
            r(&[
                ("content-length", "1000000000"),
                ("content-type", "application/json")
            ]),
            Some(Error::TooLarge(_))
        ));
    }
}
