//! What an operator reads of `ariasnap mcp --http` at `/metrics` (the Prometheus text format),
//! counted by the server (http.rs), its agents (mod.rs) and its shared browsers (fleet.rs).
//!
//! Owns: the counts and their text. Must not: decide anything by them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// What an operator reads at `/metrics`.
#[derive(Debug, Default)]
pub struct Counts {
    /// Agents (MCP sessions) open now.
    pub agents: AtomicUsize,
    /// Browsers running for agents (shared ones, or one per agent).
    pub browsers: AtomicUsize,
    /// Agents' user contexts in shared browsers.
    pub contexts: AtomicUsize,
    /// Tool calls running now, and since the start.
    pub calls_in_flight: AtomicUsize,
    pub calls_total: AtomicU64,
    /// Requests refused: no or a wrong token, a foreign Origin/Host, full.
    pub refused: AtomicU64,
    /// Set at shutdown: calls in flight finish, new requests get 503.
    pub draining: std::sync::atomic::AtomicBool,
    /// Browsers of ended agents being closed: shutdown waits for them.
    pub closing: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

impl Counts {
    /// Keeps `closing` (an ended agent's browser or context being closed) for shutdown to
    /// wait for, dropping the ones that have finished.
    pub fn closing(&self, closing: tokio::task::JoinHandle<()>) {
        if let Ok(mut c) = self.closing.lock() {
            c.retain(|h| !h.is_finished());
            c.push(closing);
        }
    }

    /// The Prometheus text exposition format.
    pub fn text(&self) -> String {
        let g = |n: &str, help: &str, kind: &str, v: u64| {
            format!("# HELP {n} {help}\n# TYPE {n} {kind}\n{n} {v}\n")
        };
        [
            g(
                "ariasnap_agents",
                "MCP sessions open.",
                "gauge",
                self.agents.load(Ordering::Relaxed) as u64,
            ),
            g(
                "ariasnap_browsers",
                "Browsers running for agents.",
                "gauge",
                self.browsers.load(Ordering::Relaxed) as u64,
            ),
            g(
                "ariasnap_contexts",
                "Agents' user contexts in shared browsers.",
                "gauge",
                self.contexts.load(Ordering::Relaxed) as u64,
            ),
            g(
                "ariasnap_calls_in_flight",
                "Tool calls running.",
                "gauge",
                self.calls_in_flight.load(Ordering::Relaxed) as u64,
            ),
            g(
                "ariasnap_calls_total",
                "Tool calls since the start.",
                "counter",
                self.calls_total.load(Ordering::Relaxed),
            ),
            g(
                "ariasnap_refused_total",
                "Requests refused (token, Origin, Host, full).",
                "counter",
                self.refused.load(Ordering::Relaxed),
            ),
        ]
        .concat()
    }
}

/// A tool call counted while it runs (`/metrics`).
pub struct InFlight(Arc<Counts>);

impl InFlight {
    pub fn new(c: Arc<Counts>) -> InFlight {
        c.calls_in_flight.fetch_add(1, Ordering::Relaxed);
        c.calls_total.fetch_add(1, Ordering::Relaxed);
        InFlight(c)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.calls_in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}
