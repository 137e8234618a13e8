//! The one integration test binary: a fixture server on 127.0.0.1:0, one browser session
//! shared by the suite (tests run one at a time against it), one module per capability.
//! Every session is closed at the end, even when tests panic.

mod agent;
mod bidi;
mod cache;
mod common;
mod eyes;
mod faults;
mod fidelity;
mod forge;
mod foundation;
mod grid;
mod hostile;
mod mcp;
mod steps;
mod views;
mod vocab;

use common::Ctx;
use libtest_mimic::{Arguments, Trial};
use std::sync::Arc;

/// Tests that cover both browsers themselves, and why they do not run (again) on Firefox.
const FIREFOX_SKIPS: &[(&str, &str)] = &[(
    "grid::chromium_and_firefox_through_a_selenium_grid",
    "covers Chromium and Firefox itself (a Selenium Grid 4 hub with a node for each): it runs \
     once, in the Chromium pass",
)];

/// Why test `name` does not run on the suite's browser, if it does not.
fn skipped(name: &str) -> Option<&'static str> {
    if !common::firefox() {
        return None;
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
    let mut args = Arguments::from_args();
    // One browser serves the suite: tests take turns.
    if args.test_threads.is_none() {
        args.test_threads = Some(1);
    }
    let ctx = Arc::new(Ctx::start());
    let mut trials = Vec::new();
    let all = [
        foundation::tests(),
        cache::tests(),
        steps::tests(),
        mcp::tests(),
        views::tests(),
        fidelity::tests(),
        hostile::tests(),
        forge::tests(),
        faults::tests(),
        bidi::tests(),
        agent::tests(),
        grid::tests(),
        eyes::tests(),
        vocab::tests(),
    ]
    .concat();
    eprintln!("end-to-end suite on {}", common::browser());
    for (name, f) in all {
        let c = ctx.clone();
        let skip = skipped(name);
        if let Some(why) = skip {
            eprintln!("skipped on {}: {name}: {why}", common::browser());
        }
        trials.push(
            Trial::test(name, move || {
                let _t = Took(name, std::time::Instant::now());
                f(&c);
                Ok(())
            })
            .with_ignored_flag(skip.is_some()),
        );
    }
    let conclusion = libtest_mimic::run(&args, trials);
    ctx.shutdown();
    // exit() skips destructors: drop the context (its temp home) first.
    drop(ctx);
    conclusion.exit();
}
