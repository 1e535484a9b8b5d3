//! What a rendering did, counted for tests: graphs prepared, texts wrapped, stages sized, plans placed, plans drawn, states a back-edge
//! route search expanded. Work done is a deterministic measure of speed (tests assert no
//! timings); outside tests nothing is counted.

/// Work counted on this thread since the last [`take`].
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Work {
    /// graphs prepared for layout (subgraph references resolved, layers ranked)
    pub prepared: usize,
    /// texts wrapped for a stage (a wrap tried before is not wrapped again)
    pub wrapped: usize,
    /// stages whose boxes were sized (a stage known too wide by its boxes is not sized again)
    pub sized: usize,
    /// plans placed past their sizes (a stage given up at its width's lower bound is not)
    pub placed: usize,
    /// plans drawn (a plan equal to one drawn before is not drawn again)
    pub drawn: usize,
    /// states the route searches expanded
    pub expanded: usize,
}

#[cfg(test)]
thread_local! {
    static WORK: std::cell::Cell<Work> = const {
        std::cell::Cell::new(Work { prepared: 0, wrapped: 0, sized: 0, placed: 0, drawn: 0, expanded: 0 })
    };
}

/// Count some work (nothing outside tests).
#[cfg_attr(not(test), allow(unused_variables))]
pub(crate) fn count(add: impl FnOnce(&mut Work)) {
    #[cfg(test)]
    WORK.with(|w| {
        let mut now = w.get();
        add(&mut now);
        w.set(now);
    });
}

/// The work counted since the last call, and start again from none.
#[cfg(test)]
pub(crate) fn take() -> Work {
    WORK.with(|w| w.replace(Work::default()))
}

#[cfg(test)]
mod tests {
    use super::{Work, take};
    use crate::{RenderOptions, render_plain};

    /// A state diagram with a `<<choice>>` loop inside a composite state (the realistic
    /// set's slowest): its back edges are routed round the outside at every stage drawn.
    const CHOICE_LOOP: &str = "stateDiagram-v2
    [*] --> Idle
    Idle --> Generating : quizz generate 42
    state Generating {
        [*] --> Outline
        Outline --> Options : outline accepted
        Options --> Validate
        state Validate <<choice>>
        Validate --> Outline : a mermaid option does not parse
        Validate --> [*] : every option parses
    }
    Generating --> Cancelled : Ctrl-C kills the claude child
    Generating --> Cached : quiz written to the cache
    Cancelled --> Idle
    Cached --> [*]";

    fn work_of(source: &str, width: usize) -> (String, Work) {
        take();
        let text = render_plain(
            source,
            &RenderOptions {
                width,
                ascii: false,
            },
        );
        (text, take())
    }

    #[test]
    fn a_plan_equal_to_one_drawn_is_not_drawn_again() {
        // The laned layout's ports have no room to spread: its spread stages plan alike
        // (six drawings and 31,800 expanded states when each was drawn).
        let (text, work) = work_of(CHOICE_LOOP, 75);
        assert!(text.contains("Validate") || text.contains('◆'), "{text}");
        assert!(work.drawn <= 4, "{work:?}");
        assert!(work.expanded < 25_000, "{work:?}");
    }

    #[test]
    fn the_back_edge_search_goes_towards_its_goal_round_the_boxes() {
        // Its bound counts the steps round the boxes and the turns still to make: the
        // loops' searches no longer flood the grid (18,800 states expanded when the bound
        // was the distance to the target's box, 5,200 now).
        let (text, work) = work_of(CHOICE_LOOP, 75);
        assert!(text.contains("Cancelled"), "{text}");
        assert!(work.expanded < 10_000, "{work:?}");
    }

    #[test]
    fn stages_too_wide_by_their_boxes_alone_are_not_placed() {
        // Left to right, five boxes side by side need more than 60 columns at every wrap:
        // none of those stages is placed before the turned drawing.
        let chain = "flowchart LR
    A[read the configuration file] --> B[validate every field]
    B --> C[connect to the database] --> D[run the pending migrations]
    D --> E[start the http server]";
        let (text, work) = work_of(chain, 60);
        assert!(text.starts_with("drawn top-down to fit"), "{text}");
        assert!(work.placed <= 2, "{work:?}");
    }
}
