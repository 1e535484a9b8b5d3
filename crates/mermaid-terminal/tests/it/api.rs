//! The public API as a user of the crate calls it: a direction asked for is the one drawn.

use mermaid_terminal::{Direction, Form, RenderOptions, render, render_in};

const CHAIN: &str = "graph LR\n  A[Checkout] --> B[Build] --> C[Unit tests] --> D[Package] --> E[Publish] --> F[Announce]";

fn at(width: usize) -> RenderOptions {
    RenderOptions {
        width,
        ascii: false,
    }
}

#[test]
fn a_chain_too_wide_left_to_right_is_turned_only_when_allowed() {
    let fit = render_in(CHAIN, &at(40), Direction::Fit);
    assert_eq!(fit, render(CHAIN, &at(40)), "Fit is what render does");
    assert_eq!(fit.form, Form::Drawing);
    assert!(fit.turned() && !fit.across(), "drawn top-down to fit");
    let source = render_in(CHAIN, &at(40), Direction::Source);
    assert!(!source.turned(), "never turned");
    assert_ne!(
        source.form,
        Form::Drawing,
        "listed: it does not fit as written"
    );
}

#[test]
fn a_graph_that_fits_is_turned_when_asked() {
    let own = render_in("graph LR\n  A --> B", &at(60), Direction::Fit);
    assert!(!own.turned() && own.across());
    let turned = render_in("graph LR\n  A --> B", &at(60), Direction::Turned);
    assert_eq!(turned.form, Form::Drawing);
    assert!(
        turned.turned() && !turned.across(),
        "drawn top-down as asked"
    );
}
