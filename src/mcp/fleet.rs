//! The browsers of `ariasnap mcp --http` and the agents on them
//! (docs/reference/mcp.md#one-browser-many-agents): each agent gets a user context in a
//! shared browser (browser/shared.rs), up to `--max-agents` per browser, more browsers
//! (up to `--max-browsers`) when they are full; a browser with no agent left is closed.
//!
//! A browser's WebDriver session has one current window, which classic commands work in:
//! the agents of one browser take turns on it command by command (browser::WindowTurn, one
//! per browser), while their BiDi and DevTools calls, which name their browsing context,
//! run side by side. Each browser also has a generation: a browser found dead is closed and
//! a new one started; each agent on it learns it once, by an error (its tabs, cookies and
//! refs are gone), and its next call works.
//!
//! A call of an agent reaches its tab here (`Agent::run_shared`): the agent is placed on a
//! browser on its first call (its user context and tab made by browser/shared.rs, with a
//! session record of its own), its `Browser` opened on that record with the browser's
//! window turn, the steps run, the turn given back.
//!
//! Owns: placing agents, their calls on a shared browser, the generations, noticing a dead
//! browser and replacing it. Must not: make user contexts or start browsers itself
//! (browser/shared.rs and browser/open.rs do).

use crate::browser::{Browser, BrowserOptions, shared};
use crate::error::{Error, Result};
use crate::steps::runner::run;
use crate::steps::{RunOptions, RunResult, StepFile};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Mutex, MutexGuard};
use tracing::info;

/// A browser agents share: its session (the owner), its turn and generation, its agents.
pub struct Host {
    /// The owning session's name (`mcp-<pid>-b<n>`).
    pub owner: String,
    /// The number of times the browser was found dead and replaced; locked while an agent
    /// is added, ended, or the browser replaced.
    generation: Mutex<u64>,
    /// The current window of the browser's WebDriver session, which the agents' classic
    /// commands take turns on.
    pub window: crate::browser::WindowTurn,
    /// Agents placed on it (made or being made).
    agents: AtomicUsize,
}

/// Where an agent lives: its host, and the host's generation its user context belongs to.
pub struct Placement {
    pub host: Arc<Host>,
    pub generation: u64,
}

/// The server's browsers.
pub struct Fleet {
    /// How the browsers are started (session name unused: owners get theirs).
    bopts: BrowserOptions,
    per_browser: usize,
    max_browsers: usize,
    hosts: Mutex<Vec<Arc<Host>>>,
    next: AtomicUsize,
    counts: Arc<super::counts::Counts>,
}

impl Fleet {
    pub fn new(
        bopts: BrowserOptions,
        per_browser: usize,
        max_browsers: usize,
        counts: Arc<super::counts::Counts>,
    ) -> Fleet {
        Fleet {
            bopts,
            per_browser: per_browser.max(1),
            max_browsers: max_browsers.max(1),
            hosts: Mutex::new(Vec::new()),
            next: AtomicUsize::new(1),
            counts,
        }
    }

    /// The options of host `owner`'s session.
    fn owner_opts(&self, owner: &str) -> BrowserOptions {
        BrowserOptions {
            session: owner.to_string(),
            state: None,
            ..self.bopts.clone()
        }
    }

    /// Places agent `agent` on the browser with the fewest agents that has room (a new one
    /// when all are full, the browser started with the agent's first call) and makes its
    /// user context there.
    pub async fn place(&self, agent: &str) -> Result<Placement> {
        let host = {
            let mut hosts = self.hosts.lock().await;
            let roomy = hosts
                .iter()
                .filter(|h| h.agents.load(Ordering::Relaxed) < self.per_browser)
                .min_by_key(|h| h.agents.load(Ordering::Relaxed))
                .cloned();
            let host = match roomy {
                Some(h) => h,
                None if hosts.len() < self.max_browsers => {
                    let n = self.next.fetch_add(1, Ordering::Relaxed);
                    let h = Arc::new(Host {
                        owner: format!("mcp-{}-b{n}", std::process::id()),
                        generation: Mutex::new(0),
                        window: Default::default(),
                        agents: AtomicUsize::new(0),
                    });
                    hosts.push(h.clone());
                    h
                }
                None => {
                    return Err(Error::Usage(format!(
                        "the server's {} browsers have {} agents each already (--max-browsers, --max-agents): try again when an agent has ended",
                        self.max_browsers, self.per_browser
                    )));
                }
            };
            host.agents.fetch_add(1, Ordering::Relaxed);
            host
        };
        let turn = host.generation.lock().await;
        let generation = *turn;
        match self.add(&host, &turn, agent).await {
            Ok(()) => Ok(Placement {
                host: host.clone(),
                generation,
            }),
            Err(e) => {
                drop(turn);
                self.release(&host).await;
                Err(e)
            }
        }
    }

    /// Makes the agent's user context on `host` (whose turn the caller holds), starting
    /// its browser when it does not run.
    async fn add(&self, host: &Host, _turn: &MutexGuard<'_, u64>, agent: &str) -> Result<()> {
        let had = crate::browser::session::load(&host.owner)
            .ok()
            .flatten()
            .is_some();
        shared::add_agent(&self.owner_opts(&host.owner), agent).await?;
        if !had {
            self.counts.browsers.fetch_add(1, Ordering::Relaxed);
            info!(owner = host.owner, "browser started for agents");
        }
        self.counts.contexts.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    /// Makes the agent again in `host`'s new browser: its record of the browser that was
    /// replaced dropped (its context went with that browser), a new context made.
    async fn add_again(&self, host: &Host, turn: &MutexGuard<'_, u64>, agent: &str) -> Result<()> {
        let _ = crate::browser::session::remove(agent);
        self.counts.contexts.fetch_sub(1, Ordering::Relaxed);
        self.add(host, turn, agent).await
    }

    /// Before a call: when the agent's browser was replaced since its context was made, the
    /// agent is placed again in the new one and told so (the call is not run).
    pub async fn current(&self, host: &Host, generation: &mut u64, agent: &str) -> Result<()> {
        let turn = host.generation.lock().await;
        self.current_locked(host, turn, generation, agent).await
    }

    /// [`Fleet::current`] with the host's lock taken.
    async fn current_locked(
        &self,
        host: &Host,
        turn: MutexGuard<'_, u64>,
        generation: &mut u64,
        agent: &str,
    ) -> Result<()> {
        if *turn == *generation {
            return Ok(());
        }
        self.add_again(host, &turn, agent).await?;
        *generation = *turn;
        Err(lost(
            agent,
            "stopped answering since this agent's last call (this call was not run)",
        ))
    }

    /// After a call that failed: when `p`'s browser no longer answers, it is closed, a new
    /// one started with this agent's user context in it, and the error to give the agent
    /// instead of the call's (None: the browser is fine, the call's own error stands).
    pub async fn check(&self, host: &Host, generation: &mut u64, agent: &str) -> Option<Error> {
        let mut turn = host.generation.lock().await;
        if *turn != *generation {
            // another agent's call found it dead and replaced it meanwhile
            return self
                .current_locked(host, turn, generation, agent)
                .await
                .err();
        }
        if shared::alive(&host.owner).await {
            return None;
        }
        let turn = &mut turn;
        info!(
            owner = host.owner,
            "a shared browser stopped answering: replacing it"
        );
        let _ = crate::browser::Browser::close_session(&host.owner, self.bopts.deadline()).await;
        self.counts.browsers.fetch_sub(1, Ordering::Relaxed);
        **turn += 1;
        *generation = **turn;
        if let Err(e) = self.add_again(host, turn, agent).await {
            return Some(Error::Browser(format!(
                "the browser agent {agent:?} shared stopped answering, and a new one did not start: {e}"
            )));
        }
        Some(lost(agent, "stopped answering during this call"))
    }

    /// Ends agent `agent` of placement `p`: its user context removed, and its browser closed
    /// when no agent is left on it.
    pub async fn end(&self, p: Placement, agent: &str) {
        {
            let turn = p.host.generation.lock().await;
            if *turn == p.generation {
                let _ = crate::browser::Browser::close_session(agent, self.bopts.deadline()).await;
                self.counts.contexts.fetch_sub(1, Ordering::Relaxed);
            } else {
                // its context went with the browser it was in
                let _ = crate::browser::session::remove(agent);
            }
        }
        self.release(&p.host).await;
    }

    /// One agent fewer on `host`: with none left, its browser is closed.
    async fn release(&self, host: &Arc<Host>) {
        let mut hosts = self.hosts.lock().await;
        if host.agents.fetch_sub(1, Ordering::Relaxed) > 1 {
            return;
        }
        hosts.retain(|h| !Arc::ptr_eq(h, host));
        drop(hosts);
        let _turn = host.generation.lock().await;
        if let Ok(true) =
            crate::browser::Browser::close_session(&host.owner, self.bopts.deadline()).await
        {
            self.counts.browsers.fetch_sub(1, Ordering::Relaxed);
            info!(owner = host.owner, "browser closed: no agent left on it");
        }
    }

    /// Closes every browser (shutdown, after every agent ended).
    pub async fn close_all(&self) {
        let hosts: Vec<Arc<Host>> = self.hosts.lock().await.drain(..).collect();
        for h in hosts {
            let _turn = h.generation.lock().await;
            let _ = crate::browser::Browser::close_session(&h.owner, self.bopts.deadline()).await;
        }
    }
}

/// The error of an agent whose browser was replaced: when, what is gone, and that the next
/// call works.
fn lost(agent: &str, when: &str) -> Error {
    Error::Browser(format!(
        "the browser agent {agent:?} shared {when} and was replaced by a new one: the agent's tabs, cookies, storage and refs are gone; its next call works in a new blank tab (navigate again)"
    ))
}

/// An agent on a shared browser: where a call of an HTTP agent reaches its tab.
impl super::Agent {
    /// A call of an agent of a shared browser: placed on its first call; its classic
    /// commands take turns on the browser's current window (browser::WindowTurn); a browser
    /// found dead replaced (fleet.rs).
    pub(super) async fn run_shared(
        &self,
        fleet: &Fleet,
        file: &StepFile,
        ropts: &RunOptions,
    ) -> Result<RunResult> {
        let agent = self.bopts.session.as_str();
        let mut guard = self.browser.lock().await;
        let mut place = self.place.lock().await;
        if place.is_none() {
            *place = Some(fleet.place(agent).await?);
        }
        let p = place
            .as_mut()
            .ok_or_else(|| Error::Browser("no browser".into()))?;
        let host = p.host.clone();
        if let Err(e) = fleet.current(&host, &mut p.generation, agent).await {
            // (the agent's Browser belonged to the browser that was replaced)
            guard.take();
            return Err(e);
        }
        let generation = p.generation;
        let ran = async {
            if guard.is_none() {
                let opts = BrowserOptions {
                    window_turn: Some(host.window.clone()),
                    // restored below, into this agent's own user context
                    state: None,
                    ..self.bopts.clone()
                };
                let mut b = Browser::open(&opts).await?;
                self.restore_state(&mut b, generation).await?;
                *guard = Some(b);
            }
            let b = guard
                .as_mut()
                .ok_or_else(|| Error::Browser("no browser".into()))?;
            let r = run(b, file, ropts).await;
            b.page.end_turn();
            Ok::<_, Error>(r)
        }
        .await;
        if ran.as_ref().is_ok_and(|r| r.status == "ok") {
            return ran;
        }
        match fleet.check(&host, &mut p.generation, agent).await {
            Some(lost) => {
                guard.take();
                Err(lost)
            }
            None => ran,
        }
    }

    /// `--state FILE` for an agent of a shared browser: restored into its user context once
    /// per context (a browser replaced gives it a new one), with the note a session started
    /// with `--state` gets.
    async fn restore_state(&self, b: &mut Browser, generation: u64) -> Result<()> {
        let Some(path) = &self.bopts.state else {
            return Ok(());
        };
        if self
            .restored
            .lock()
            .map(|r| *r == Some(generation))
            .unwrap_or(false)
        {
            return Ok(());
        }
        let shown = path.display().to_string();
        let state = crate::browser::logins::read_file(path)?;
        let done = b.restore_state(&state, b.timeout).await.map_err(|e| {
            Error::Step(format!(
                "--state {shown}: {} (this agent's context was made without it: `browser_load_state` tries again)",
                crate::error::one_line(&e.to_string())
            ))
        })?;
        b.notes.push(format!("--state: {}", done.sentence(&shown)));
        if !done.skipped.is_empty() {
            b.notes
                .push(format!("--state: left out {}", done.skipped.join(", ")));
        }
        if let Ok(mut r) = self.restored.lock() {
            *r = Some(generation);
        }
        Ok(())
    }
}
