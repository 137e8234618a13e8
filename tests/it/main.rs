//! The one integration test binary: a fixture server on 127.0.0.1:0, one browser session
//! shared by the suite (tests run one at a time against it), one module per capability.
//! Every session is closed at the end, even when tests panic.

mod bidi;
mod cache;
mod common;
mod faults;
mod fidelity;
mod forge;
mod foundation;
mod hostile;
mod mcp;
mod steps;
mod views;

use common::Ctx;
use libtest_mimic::{Arguments, Trial};
use std::sync::Arc;

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
    ]
    .concat();
    for (name, f) in all {
        let c = ctx.clone();
        trials.push(Trial::test(name, move || {
            f(&c);
            Ok(())
        }));
    }
    let conclusion = libtest_mimic::run(&args, trials);
    ctx.shutdown();
    // exit() skips destructors: drop the context (its temp home) first.
    drop(ctx);
    conclusion.exit();
}
