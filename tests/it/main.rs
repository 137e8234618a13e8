//! The one integration test binary: a fixture server on 127.0.0.1:0, one browser session
//! shared by the suite (tests run one at a time against it), one module per capability.
//! A test with a browser session of its own (`ALONGSIDE`) runs on its own thread while the
//! others take their turns. Every session is closed at the end, even when tests panic.
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
mod eyes;
mod faults;
mod fidelity;
mod forge;
mod foundation;
mod grid;
mod hostile;
mod mcp;
mod mcp_http;
mod pointer;
mod policy;
mod replay;
mod reply;
mod settle;
mod skills;
mod state;
mod steps;
mod trust;
mod views;
mod vocab;
mod widgets;

use common::Ctx;
use libtest_mimic::{Arguments, Trial};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

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

/// Tests that drive a browser session of their own (not the shared one), started on a thread
/// of their own before the other tests and run alongside them: the 1,000 randomized rounds
/// (`ariasnap mcp` on the session "rounds") are some 400 s, a third of a pass, and would
/// otherwise wait for nothing but their turn.
const ALONGSIDE: &[&str] = &["steps::randomized_rounds_never_act_on_the_wrong_element"];

/// A test's name from its function's path: `module::function`, without the crate's name.
fn trial_name(path: &'static str) -> &'static str {
    let krate = concat!(env!("CARGO_CRATE_NAME"), "::");
    path.strip_prefix(krate)
        .unwrap_or_else(|| panic!("{path} is not a path in {krate}"))
}

/// Every name is one test's, and every test `FIREFOX_SKIPS` and `ALONGSIDE` name is there.
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
    for name in listed.chain(HOST_ONLY).chain(ALONGSIDE) {
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
    // One browser serves the suite: tests take turns.
    if args.test_threads.is_none() {
        args.test_threads = Some(1);
    }
    let mut trials = Vec::new();
    let all = [
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
        eyes::tests(),
        vocab::tests(),
        widgets::tests(),
        clickables::tests(),
        pointer::tests(),
        policy::tests(),
        state::tests(),
        trust::tests(),
        skills::tests(),
        debugging::tests(),
    ]
    .concat();
    check_names(&all);
    let ctx = Arc::new(Ctx::start());
    eprintln!("end-to-end suite on {}", common::browser());
    // the threads of the tests that run alongside the others, taken by their trials
    let mut threads: Vec<Arc<Mutex<Option<JoinHandle<()>>>>> = Vec::new();
    let mut alongside = Vec::new();
    for (name, f) in all {
        let skip = skipped(name);
        if let Some(why) = skip {
            eprintln!("skipped on {}: {name}: {why}", common::browser());
        }
        if ALONGSIDE.contains(&name) {
            alongside.push((name, f, skip.is_some()));
            continue;
        }
        let c = ctx.clone();
        trials.push(
            Trial::test(name, move || {
                let _t = Took(name, std::time::Instant::now());
                f(&c);
                Ok(())
            })
            .with_ignored_flag(skip.is_some()),
        );
    }
    // A test that runs alongside starts now, on its own thread, if the command line selects
    // it (the same filter, --exact, --skip, --ignored and --include-ignored rules
    // libtest-mimic applies; --list starts nothing). Its trial comes last and waits for the
    // thread: a panic there fails the trial with the same message, as if it ran in place.
    for (name, f, ignored) in alongside {
        let probe = Trial::test(name, || Ok(())).with_ignored_flag(ignored);
        let selected = !args.list && !args.is_filtered_out(&probe) && !args.is_ignored(&probe);
        let thread = selected.then(|| {
            let c = ctx.clone();
            eprintln!("started alongside the other tests: {name}");
            std::thread::Builder::new()
                .name(name.to_string())
                .spawn(move || {
                    let _t = Took(name, std::time::Instant::now());
                    f(&c);
                })
                .expect("spawn a test thread")
        });
        let slot = Arc::new(Mutex::new(thread));
        threads.push(slot.clone());
        trials.push(
            Trial::test(name, move || {
                let thread = slot.lock().unwrap().take();
                let thread = thread.expect("a selected test's thread was started");
                if let Err(panic) = thread.join() {
                    // libtest-mimic catches it and reports its message
                    std::panic::resume_unwind(panic);
                }
                Ok(())
            })
            .with_ignored_flag(ignored),
        );
    }
    let conclusion = libtest_mimic::run(&args, trials);
    // A started thread whose trial did not take it (none should be left) still ends before
    // the sessions close, so its browser is not left behind.
    for slot in threads {
        if let Some(thread) = slot.lock().unwrap().take() {
            let _ = thread.join();
        }
    }
    ctx.shutdown();
    // exit() skips destructors: drop the context (its temp home) first.
    drop(ctx);
    drop(tmp);
    conclusion.exit();
}
