//! Connections: the accept loop, with the limits that keep a flood of slow or idle
//! clients from taking the server down.
//!
//! - **Header timeout.** A request's headers must arrive within [`NetLimits::header`].
//! - **Body timeout.** A request's body must arrive within [`NetLimits::body`], and a
//!   body declared larger than [`crate::BODY_LIMIT`] is refused (413) before it is read.
//! - **Idle timeout.** A connection from which nothing is read for [`NetLimits::idle`] is
//!   closed (WebSockets stay alive: the server pings them and browsers answer).
//! - **Connection cap.** At most [`NetLimits::max_connections`] connections, kept below
//!   the open-file limit (raised to its hard limit at start). When the cap or the file
//!   limit is reached, the oldest connection that has not yet sent a whole request is
//!   closed to make room, so new clients are still served during a flood of slow ones;
//!   the accept loop never stops.
//!
//! Each connection gets its peer address as `ConnectInfo<SocketAddr>` (see
//! [`crate::api::ClientAddr`]). On shutdown the loop stops accepting and asks every
//! connection to finish its request and close.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, oneshot, watch};
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

/// The limits of [`serve_connections`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetLimits {
    /// Time for a request's headers to arrive.
    pub header: Duration,
    /// Time for a request's body to arrive.
    pub body: Duration,
    /// A connection from which nothing is read for this long is closed.
    pub idle: Duration,
    /// Most connections at once (lowered to fit the open-file limit).
    pub max_connections: usize,
    /// A reverse proxy whose `X-Forwarded-For` is believed: a request from this address
    /// counts as coming from the address the proxy added last (rate limits per client
    /// then see the clients, not the proxy). From any other address the header is
    /// ignored, so nobody can pick the address their requests count against.
    pub trusted_proxy: Option<std::net::IpAddr>,
}

impl Default for NetLimits {
    fn default() -> Self {
        NetLimits {
            header: Duration::from_secs(10),
            body: Duration::from_secs(15),
            idle: Duration::from_secs(75),
            max_connections: 10_000,
            trusted_proxy: None,
        }
    }
}

/// Files kept free for the database, the engine and the runtime.
const RESERVED_FILES: u64 = 64;

/// Raises the open-file limit to its hard limit and returns how many connections fit
/// under it, at most `wanted`.
#[must_use]
pub fn connection_cap(wanted: usize) -> usize {
    let files = rlimit::increase_nofile_limit(u64::MAX).unwrap_or(1024);
    let fit = files.saturating_sub(RESERVED_FILES).max(16);
    wanted
        .min(usize::try_from(fit).unwrap_or(usize::MAX))
        .max(1)
}

/// Connections that have not yet sent a whole request, oldest first: the ones closed to
/// make room.
#[derive(Debug, Default)]
struct Unproven {
    next: AtomicU64,
    waiting: Mutex<BTreeMap<u64, oneshot::Sender<()>>>,
}

impl Unproven {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, oneshot::Sender<()>>> {
        self.waiting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn add(&self) -> (u64, oneshot::Receiver<()>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.lock().insert(id, tx);
        (id, rx)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Closes the oldest connection that has sent no whole request; `false` if none.
    fn evict_oldest(&self) -> bool {
        let oldest = self.lock().pop_first();
        oldest.is_some_and(|(_, tx)| tx.send(()).is_ok())
    }
}

/// Accepts and serves connections on `listener` until `shutdown` resolves, then lets
/// every connection finish (at most `drain`) and returns.
pub async fn serve_connections(
    listener: TcpListener,
    router: Router,
    limits: NetLimits,
    shutdown: impl Future<Output = ()>,
    drain: Duration,
) {
    let cap = connection_cap(limits.max_connections);
    tracing::debug!(cap, "connection limit");
    let permits = Arc::new(Semaphore::new(cap));
    let unproven = Arc::new(Unproven::default());
    let (closing, _) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        // Room for one more connection: take a permit, or close the oldest slow one.
        let permit = match Arc::clone(&permits).try_acquire_owned() {
            Ok(p) => p,
            Err(_) => {
                unproven.evict_oldest();
                tokio::select! {
                    p = Arc::clone(&permits).acquire_owned() => match p {
                        Ok(p) => p,
                        Err(_) => break,
                    },
                    () = &mut shutdown => break,
                }
            }
        };
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of files (or another passing failure): make room and go on.
                if !unproven.evict_oldest() {
                    tracing::warn!(error = %e, "accept failed");
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let unproven = Arc::clone(&unproven);
        let closing = closing.subscribe();
        tokio::spawn(async move {
            serve_one(stream, peer, router, limits, &unproven, closing).await;
            drop(permit);
        });
    }
    drop(listener);
    closing.send_replace(true);
    // Every connection holds a permit until it ends.
    let all = u32::try_from(cap).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(drain, permits.acquire_many(all)).await;
}

/// The client a request comes from: `peer`, or, when `peer` is the trusted proxy, the
/// last address of its `X-Forwarded-For` (the one that proxy added; an unreadable header
/// leaves the proxy's address).
#[must_use]
pub fn client_of(
    peer: SocketAddr,
    trusted: Option<std::net::IpAddr>,
    headers: &axum::http::HeaderMap,
) -> SocketAddr {
    if trusted != Some(peer.ip()) {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|a| a.trim().parse::<std::net::IpAddr>().ok())
        .map_or(peer, |ip| SocketAddr::new(ip, 0))
}

async fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: NetLimits,
    unproven: &Arc<Unproven>,
    mut closing: watch::Receiver<bool>,
) {
    let (ticket, mut evicted) = unproven.add();
    let proven = Arc::new(AtomicBool::new(false));
    let service = {
        let unproven = Arc::clone(unproven);
        let proven = Arc::clone(&proven);
        hyper::service::service_fn(move |req: Request<Incoming>| {
            if !proven.swap(true, Ordering::Relaxed) {
                unproven.remove(ticket);
            }
            let router = router.clone();
            async move {
                let mut req = req.map(|body| Body::new(TimedBody::new(body, limits.body)));
                let client = client_of(peer, limits.trusted_proxy, req.headers());
                req.extensions_mut().insert(ConnectInfo(client));
                router.oneshot(req).await
            }
        })
    };
    let io = TokioIo::new(IdleIo::new(stream, limits.idle));
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut draining = false;
    loop {
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::trace!(%peer, error = %e, "connection ended");
                }
                break;
            }
            r = &mut evicted, if !proven.load(Ordering::Relaxed) => {
                if r.is_ok() {
                    tracing::debug!(%peer, "slow connection closed to make room");
                    break;
                }
            }
            r = closing.wait_for(|&c| c), if !draining => {
                draining = true;
                if r.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
    unproven.remove(ticket);
}

/// A request body that must arrive whole before a deadline.
struct TimedBody {
    inner: Incoming,
    deadline: Pin<Box<Sleep>>,
}

impl TimedBody {
    fn new(inner: Incoming, limit: Duration) -> TimedBody {
        TimedBody {
            inner,
            deadline: Box::pin(tokio::time::sleep(limit)),
        }
    }
}

impl hyper::body::Body for TimedBody {
    type Data = hyper::body::Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|r| r.map_err(Into::into)));
        }
        ready!(self.deadline.as_mut().poll(cx));
        Poll::Ready(Some(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the request body did not arrive in time",
        )
        .into())))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A stream that fails with `TimedOut` once nothing has been read from it for `idle`.
#[derive(Debug)]
pub struct IdleIo<T> {
    inner: T,
    idle: Duration,
    timer: Pin<Box<Sleep>>,
}

impl<T> IdleIo<T> {
    /// Wraps `inner`.
    pub fn new(inner: T, idle: Duration) -> IdleIo<T> {
        IdleIo {
            inner,
            idle,
            timer: Box::pin(tokio::time::sleep(idle)),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for IdleIo<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    let next = Instant::now() + self.idle;
                    self.timer.as_mut().reset(next);
                }
                Poll::Ready(r)
            }
            Poll::Pending => {
                ready!(self.timer.as_mut().poll(cx));
                Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "nothing read for too long",
                )))
            }
        }
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for IdleIo<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod forwarded_tests {
    use super::*;

    #[test]
    fn only_the_trusted_proxy_names_the_client() {
        let proxy: SocketAddr = "10.0.0.1:4000".parse().unwrap();
        let other: SocketAddr = "10.0.0.9:4000".parse().unwrap();
        let mut h = axum::http::HeaderMap::new();
        h.insert("x-forwarded-for", "1.2.3.4, 5.6.7.8".parse().unwrap());
        let trusted = Some(proxy.ip());
        assert_eq!(client_of(proxy, trusted, &h).ip().to_string(), "5.6.7.8");
        assert_eq!(client_of(other, trusted, &h), other, "not the proxy");
        assert_eq!(client_of(proxy, None, &h), proxy, "no proxy trusted");
        h.insert("x-forwarded-for", "nonsense".parse().unwrap());
        assert_eq!(client_of(proxy, trusted, &h), proxy);
        assert_eq!(
            client_of(proxy, trusted, &axum::http::HeaderMap::new()),
            proxy
        );
    }
}
