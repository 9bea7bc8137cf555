//! The fast half of the ordering mutation test: recomputes the ordering
//! sites of the queue crates from their sources and compares them with the
//! list `MUTANTS.md` was written for. It fails, naming each site, when an
//! ordering was added, removed or changed since the mutants were last run,
//! and says which command reruns them. No loom, no mutant runs: well under
//! a second once built.
#![cfg(not(loom))]

use hotq_loom_tests::sites;

#[test]
fn mutants_md_lists_every_ordering_site_of_the_sources() {
    let root = sites::workspace_root();
    if let Err(e) = sites::check(&root) {
        panic!("\n{e}\n");
    }
}

#[test]
fn every_present_crate_has_ordering_sites_to_mutate() {
    let root = sites::workspace_root();
    for krate in sites::present_crates(&root) {
        let found = sites::find_sites(&root, krate).unwrap();
        assert!(
            !found.is_empty(),
            "{krate}: no non-Relaxed ordering found; is the finder broken?"
        );
    }
}
