//! Renderings checked against reviewed files (insta; issue 56): a page's reply as the engine
//! sends it (fixtures/wire/checkout.json, the compact wire form) rendered as text, verbose
//! text and JSON. A change to the renderer shows as a diff of the `.snap` files under
//! `snapshots/`: review it with `cargo insta review` (or `INSTA_UPDATE=always cargo test
//! --lib reviewed` and `git diff`), and commit the files with the change.

use super::{RenderOptions, to_json, to_text};
use crate::snapshot::Snapshot;
use crate::wire::WireSnapshot;

/// The fixture's reply, decoded and made a snapshot as a capture does.
fn checkout() -> Snapshot {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/wire/checkout.json");
    let raw = std::fs::read_to_string(path).expect("fixtures/wire/checkout.json");
    let w: WireSnapshot = serde_json::from_str(&raw).expect("a snapshot reply");
    Snapshot::from_wire(w)
}

#[test]
fn checkout_as_text() {
    insta::assert_snapshot!(to_text(&checkout(), &RenderOptions::default()));
}

#[test]
fn checkout_as_verbose_text() {
    insta::assert_snapshot!(to_text(&checkout(), &RenderOptions { verbose: true }));
}

#[test]
fn checkout_as_json() {
    insta::assert_snapshot!(to_json(&checkout(), &RenderOptions::default(), true));
}
