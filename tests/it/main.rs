//! The one integration test binary: one module per capability, run by several workers. Each
//! worker has a context of its own (`Ctx`: a fixture server on 127.0.0.1:0, a home and a
//! shared browser session), taken from a pool for one test at a time, so two tests never
//! share a session, a home or a browser. A test that must have the machine to itself
//! (`SOLO`) waits for all of them. Every session is closed at the end, even when tests panic.
//!
//! Each module lists its tests with `trials![f, g, ...]`, which names each one after its
//! module and function (`agent::f`): a name found in a CI log is the function to search for.

/// The tests of the module it is used in, each named `module::function` by construction:
/// `trials![a, b]` is `vec![("module::a", a), ("module::b", b)]`.
macro_rules! trials {
    ($($f:ident),* $(,)?) => {
        vec![$((
            crate::trial_name(concat!(module_path!(), "::", stringify!($f))),
            $f as fn(&crate::common::Ctx),
        )),*]
    };
}

mod aam;
mod agent;
mod bidi;
mod budget;
mod cache;
mod clickables;
mod common;
mod debugging;
mod faults;
mod fidelity;
mod forge;
mod foundation;
mod grid;
mod hostile;
mod logins;
mod mcp;
mod mcp_http;
mod more_steps;
mod pointer;
mod points;
mod policy;
mod replay;
mod reply;
mod settle;
mod skills;
mod steps;
mod trust;
mod views;
mod widgets;

use common::Ctx;
use libtest_mimic::{Arguments, Trial};
use std::sync::{Arc, Condvar, Mutex};

/// Tests that cover both browsers themselves, and why they do not run (again) on Firefox.
const FIREFOX_SKIPS: &[(&str, &str)] = &[(
    "grid::chromium_and_firefox_through_a_selenium_grid",
    "covers Chromium and Firefox itself (a Selenium Grid 4 hub with a node for each): it runs \
     once, in the Chromium pass",
)];

/// Tests whose assertions are about the host alone (the command line, step-file parsing,
/// files, session locks, the MCP server's cancelling, draining and handles): the browser
/// only serves them a page, and what they check is the same code on either browser. They
/// run once, in the Chromium pass (docs/contributing.md#tests). A test that checks anything
/// the browser does (a tree, an action, a context, a crash, a request) is not listed here:
/// those run on both.
const HOST_ONLY: &[&str] = &[
    "foundation::missing_browser_says_how_to_fix",
    "foundation::version_shows_engine_hash",
    "skills::skills_are_listed_printed_kept_and_installed",
    "steps::malformed_step_file_runs_nothing",
    "views::bad_queries_and_paging_values",
    "views::planted_symlink_is_not_followed",
    "faults::busy_session_fails_at_the_deadline",
    "faults::concurrent_commands_are_serialised",
    "mcp::results_are_text_unless_structured_is_asked",
    "mcp::a_cancelled_call_stops_and_frees_the_agent",
    "mcp_http::sigterm_lets_the_call_in_flight_finish",
    "mcp_http::a_call_cancelled_over_http_is_cut",
    "mcp_http::agents_without_a_session_are_known_by_handle",
];

/// The longest tests, started first while the other workers take the rest of the suite in
/// turn (a long test handed out last would end the pass alone): the 1,000 randomized rounds
/// (`ariasnap mcp` on a session of their own, some 300 s on Chromium), the APG patterns'
/// replay (30 s on Chromium, 70 to 100 s on Firefox) and the Selenium Grid (30 to 40 s).
const FIRST: &[&str] = &[
    "steps::randomized_rounds_never_act_on_the_wrong_element",
    "replay::apg_patterns_replay_to_the_same_state",
    "grid::chromium_and_firefox_through_a_selenium_grid",
];

/// Tests that measure time against the page's own and want no other test's browser beside
/// them: each waits for every worker's context and runs alone, after the others. The settle
/// tests check that a reply waits for what the action started (a 300 ms timer, a 400 ms
/// debounce) and not for the page's own 500 ms poll: a browser busy beside them moves those
/// times.
const SOLO: &[&str] = &[
    "settle::a_hover_names_the_submenu_its_timer_opens",
    "settle::typing_names_the_suggestions_its_debounce_brings",
    "settle::a_re_rendered_calendar_is_named_with_its_new_refs",
    "settle::a_click_does_not_report_the_pages_own_poll",
];

/// The workers' contexts: a test takes one (a `SOLO` test all of them) and gives it back when
/// it ends, failed or not. A solo test waiting holds the others back, so it is not starved.
struct Pool {
    state: Mutex<(Vec<Arc<Ctx>>, bool)>,
    freed: Condvar,
    size: usize,
}

impl Pool {
    fn new(size: usize) -> Pool {
        let all = (0..size).map(|_| Arc::new(Ctx::start())).collect();
        Pool {
            state: Mutex::new((all, false)),
            freed: Condvar::new(),
            size,
        }
    }

    /// Waits for `n` free contexts and takes them.
    fn take(&self, solo: bool) -> Vec<Arc<Ctx>> {
        let n = if solo { self.size } else { 1 };
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let waiting_solo = st.1;
            if st.0.len() >= n && (solo || !waiting_solo) {
                if solo {
                    st.1 = false;
                }
                let at = st.0.len() - n;
                return st.0.split_off(at);
            }
            if solo {
                st.1 = true;
            }
            st = self.freed.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn give(&self, back: Vec<Arc<Ctx>>) {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.0.extend(back);
        self.freed.notify_all();
    }
}

/// Contexts taken for one test, given back when it ends (a panic included).
struct Taken<'a>(&'a Pool, Vec<Arc<Ctx>>);

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        self.0.give(std::mem::take(&mut self.1));
    }
}

/// A test's name from its function's path: `module::function`, without the crate's name.
fn trial_name(path: &'static str) -> &'static str {
    let krate = concat!(env!("CARGO_CRATE_NAME"), "::");
    path.strip_prefix(krate)
        .unwrap_or_else(|| panic!("{path} is not a path in {krate}"))
}

/// Every name is one test's, and every test `FIREFOX_SKIPS`, `HOST_ONLY`, `FIRST` and `SOLO`
/// name is there.
fn check_names(all: &[common::Test]) {
    let mut seen = std::collections::HashSet::new();
    for (name, _) in all {
        assert!(seen.insert(*name), "two tests are named {name}");
        assert_eq!(
            name.matches("::").count(),
            1,
            "{name} is not module::function"
        );
    }
    let listed = FIREFOX_SKIPS.iter().map(|(n, _)| n);
    for name in listed.chain(HOST_ONLY).chain(FIRST).chain(SOLO) {
        assert!(seen.contains(name), "no test is named {name}");
    }
}

/// Why test `name` does not run on the suite's browser, if it does not.
fn skipped(name: &str) -> Option<&'static str> {
    if !common::firefox() {
        return None;
    }
    if HOST_ONLY.contains(&name) {
        return Some("checks the host alone: it runs once, in the Chromium pass (HOST_ONLY)");
    }
    FIREFOX_SKIPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, why)| *why)
}

/// Prints a test's own time when it ends, failed or not, so a CI log shows where the suite's
/// time goes.
struct Took(&'static str, std::time::Instant);

impl Drop for Took {
    fn drop(&mut self) {
        let how = if std::thread::panicking() {
            " (failed)"
        } else {
            ""
        };
        eprintln!(
            "took {:.1} s{how}: {}",
            self.1.elapsed().as_secs_f64(),
            self.0
        );
    }
}

fn main() {
    // Everything the suite's processes put in the temp directory (spilled snapshots,
    // screenshots, browser profiles and crash dumps) goes in one folder removed at the end,
    // so runs do not pile up in /tmp. Set before any thread starts.
    let tmp = tempfile::Builder::new()
        .prefix("ariasnap-suite-")
        .tempdir()
        .expect("create the suite's temp directory");
    // SAFETY: at the start of main, before any other thread exists.
    unsafe { std::env::set_var("TMPDIR", tmp.path()) };
    let mut args = Arguments::from_args();
    // Workers, each with a context of its own (`--test-threads N` for N): three on Chromium,
    // two on Firefox. On 2 cores a Chromium pass is mostly waiting on its pages (two workers
    // took 814 s of test time in 411 s, each test as long as alone), while two Firefox
    // workers already slow each other's tests by some 40% (778 s of test time against 550 s
    // one at a time): a third one there would only stretch them further.
    let workers = *args
        .test_threads
        .get_or_insert(if common::firefox() { 2 } else { 3 });
    let mut all = [
        foundation::tests(),
        cache::tests(),
        steps::tests(),
        replay::tests(),
        mcp::tests(),
        mcp_http::tests(),
        reply::tests(),
        settle::tests(),
        views::tests(),
        fidelity::tests(),
        aam::tests(),
        hostile::tests(),
        forge::tests(),
        faults::tests(),
        bidi::tests(),
        agent::tests(),
        budget::tests(),
        grid::tests(),
        points::tests(),
        more_steps::tests(),
        widgets::tests(),
        clickables::tests(),
        pointer::tests(),
        policy::tests(),
        logins::tests(),
        trust::tests(),
        skills::tests(),
        debugging::tests(),
    ]
    .concat();
    check_names(&all);
    // the first ones first, the solo ones last (a solo test waits for the other worker's
    // test to end: last, it does not wait for the rounds); a stable sort, the rest keep
    // their order
    all.sort_by_key(|(name, _)| match () {
        _ if FIRST.contains(name) => 0,
        _ if SOLO.contains(name) => 2,
        _ => 1,
    });
    let pool = Arc::new(Pool::new(workers));
    eprintln!(
        "end-to-end suite on {}, {workers} workers",
        common::browser()
    );
    let mut trials = Vec::new();
    for (name, f) in all {
        let skip = skipped(name);
        if let Some(why) = skip {
            eprintln!("skipped on {}: {name}: {why}", common::browser());
        }
        let pool = pool.clone();
        trials.push(
            Trial::test(name, move || {
                let solo = SOLO.contains(&name);
                let taken = Taken(&pool, pool.take(solo));
                if solo {
                    // every session of every context ends first (a page a test left open
                    // may still be busy): the solo test starts the one browser it uses
                    for ctx in &taken.1 {
                        ctx.shutdown();
                    }
                }
                let _t = Took(name, std::time::Instant::now());
                f(&taken.1[0]);
                Ok(())
            })
            .with_ignored_flag(skip.is_some()),
        );
    }
    let conclusion = libtest_mimic::run(&args, trials);
    let all = std::mem::take(&mut pool.state.lock().unwrap_or_else(|e| e.into_inner()).0);
    for ctx in &all {
        ctx.shutdown();
    }
    // exit() skips destructors: drop the contexts (their temp homes) first.
    drop(all);
    drop(pool);
    drop(tmp);
    conclusion.exit();
}
