//! The renderer's integration tests in one binary: the peer corpus, the quiz fixtures, the
//! realistic sets, glyphs, properties and measurements.
//!
//! Run one area with `cargo test -p mermaid-terminal --test it AREA::`, e.g.
//! `cargo test -p mermaid-terminal --test it mermaid_realistic::`.
// Tests may unwrap; the helpers read fixtures by their exact names.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::case_sensitive_file_extension_comparisons,
    clippy::format_collect,
    clippy::format_push_string,
    clippy::too_many_lines,
    clippy::type_complexity
)]

mod mermaid_common;

mod api;
mod mermaid_corpus;
mod mermaid_fit;
mod mermaid_glyphs;
mod mermaid_labels;
mod mermaid_layers;
mod mermaid_listing;
mod mermaid_marks;
mod mermaid_measure;
mod mermaid_names;
mod mermaid_placement;
mod mermaid_points;
mod mermaid_props;
mod mermaid_realistic;
mod mermaid_seqmarks;
mod mermaid_sequence;
mod mermaid_snapshots;
mod mermaid_states;
mod mermaid_unseen;
mod readme;
