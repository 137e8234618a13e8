//! The end of the HTTP server (`ariasnap mcp --http`): on Ctrl-C or SIGTERM, the calls in
//! flight drained, then every agent's context or browser closed, then the shared browsers.
//!
//! Owns: draining and shutdown. Must not: answer requests (http.rs does).

use super::Agent;
use super::counts::Counts;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tracing::info;

/// How long shutdown waits for the calls in flight.
pub(super) const DRAIN_LIMIT: Duration = Duration::from_secs(60);

/// Shutdown's first part, from Ctrl-C or SIGTERM: new `/mcp` requests get 503 while the
/// calls in flight finish and send their results, for up to [`DRAIN_LIMIT`] (a second
/// signal stops waiting).
pub(super) async fn drain(counts: &Counts) {
    shutdown_signal().await;
    counts.draining.store(true, Ordering::Relaxed);
    let running = counts.calls_in_flight.load(Ordering::Relaxed);
    info!(running, "shutting down: finishing the calls in flight");
    let wait = async {
        while counts.calls_in_flight.load(Ordering::Relaxed) > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        _ = wait => {},
        _ = tokio::time::sleep(DRAIN_LIMIT) => info!("calls still running after {} s: ending them", DRAIN_LIMIT.as_secs()),
        _ = shutdown_signal() => info!("second signal: ending the calls in flight"),
    }
}

/// Shutdown: every agent's context (or browser) closed, the closes of agents that ended
/// before waited for, then the shared browsers closed.
pub(super) async fn close_everything(
    agents: &std::sync::Mutex<Vec<std::sync::Weak<Agent>>>,
    fleet: Option<&super::fleet::Fleet>,
    counts: &Counts,
) {
    info!("shutting down: closing every agent's context and browser");
    let open: Vec<Arc<Agent>> = agents
        .lock()
        .map(|a| a.iter().filter_map(std::sync::Weak::upgrade).collect())
        .unwrap_or_default();
    for s in open {
        s.shutdown().await;
    }
    let closing: Vec<_> = counts
        .closing
        .lock()
        .map(|mut c| c.drain(..).collect())
        .unwrap_or_default();
    for c in closing {
        let _ = tokio::time::timeout(Duration::from_secs(20), c).await;
    }
    if let Some(f) = fleet {
        f.close_all().await;
    }
}

/// Ctrl-C or SIGTERM.
pub(super) async fn shutdown_signal() {
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {},
        _ = term => {},
    }
}
