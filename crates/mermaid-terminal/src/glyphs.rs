//! Glyph sets: one for Unicode terminals, one pure-ASCII. Every arrow kind keeps a distinct
//! glyph in both sets.

/// Line weight of a drawn segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineKind {
    #[default]
    Solid,
    Dotted,
    Thick,
}

/// Arrow heads (flowchart, state, class and sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Head {
    #[default]
    None,
    /// filled arrow (`-->`, `->>`)
    Arrow,
    /// open/async arrow (`-)`)
    Open,
    /// cross (`-x`, `--x`)
    Cross,
    /// circle (`--o`)
    Circle,
    /// hollow triangle (class inheritance/realisation)
    Triangle,
    /// filled diamond (composition)
    Diamond,
    /// hollow diamond (aggregation)
    HollowDiamond,
}

/// Direction an arrow head points to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir4 {
    Up,
    Down,
    Left,
    Right,
}

/// A glyph set.
#[derive(Debug, Clone, Copy)]
pub struct Glyphs {
    pub ascii: bool,
}

pub const UP: u8 = 1;
pub const DOWN: u8 = 2;
pub const LEFT: u8 = 4;
pub const RIGHT: u8 = 8;

impl Glyphs {
    pub fn new(ascii: bool) -> Self {
        Glyphs { ascii }
    }

    /// Glyph for a cell whose line connects in the `bits` directions.
    pub fn line(self, bits: u8, h: LineKind, v: LineKind, round: bool) -> char {
        let horizontal = bits & (LEFT | RIGHT) != 0;
        let vertical = bits & (UP | DOWN) != 0;
        if self.ascii {
            return match (horizontal, vertical) {
                (true, true) if round && bits.count_ones() == 2 => {
                    if bits & DOWN != 0 {
                        '.'
                    } else {
                        '\''
                    }
                }
                (true, true) => '+',
                (true, false) => match h {
                    LineKind::Solid => '-',
                    LineKind::Dotted => '.',
                    LineKind::Thick => '=',
                },
                (false, true) => match v {
                    LineKind::Solid => '|',
                    LineKind::Dotted => ':',
                    LineKind::Thick => '#',
                },
                (false, false) => ' ',
            };
        }
        if horizontal && !vertical {
            return match h {
                LineKind::Solid => '─',
                LineKind::Dotted => '┄',
                LineKind::Thick => '━',
            };
        }
        if vertical && !horizontal {
            return match v {
                LineKind::Solid => '│',
                LineKind::Dotted => '┆',
                LineKind::Thick => '┃',
            };
        }
        let thick = h == LineKind::Thick && v == LineKind::Thick;
        // A light line meeting a heavy vertical (an active lifeline).
        if v == LineKind::Thick && h != LineKind::Thick && !round {
            let mixed = match bits {
                b if b == UP | DOWN | RIGHT => Some('┠'),
                b if b == UP | DOWN | LEFT => Some('┨'),
                b if b == UP | DOWN | LEFT | RIGHT => Some('╂'),
                b if b == DOWN | RIGHT => Some('┎'),
                b if b == DOWN | LEFT => Some('┒'),
                b if b == UP | RIGHT => Some('┖'),
                b if b == UP | LEFT => Some('┚'),
                b if b == LEFT | RIGHT | DOWN => Some('┰'),
                b if b == LEFT | RIGHT | UP => Some('┸'),
                _ => None,
            };
            if let Some(c) = mixed {
                return c;
            }
        }
        match (bits, thick, round) {
            (b, _, true) if b == DOWN | RIGHT => '╭',
            (b, _, true) if b == DOWN | LEFT => '╮',
            (b, _, true) if b == UP | RIGHT => '╰',
            (b, _, true) if b == UP | LEFT => '╯',
            (b, false, _) if b == DOWN | RIGHT => '┌',
            (b, false, _) if b == DOWN | LEFT => '┐',
            (b, false, _) if b == UP | RIGHT => '└',
            (b, false, _) if b == UP | LEFT => '┘',
            (b, false, _) if b == UP | DOWN | RIGHT => '├',
            (b, false, _) if b == UP | DOWN | LEFT => '┤',
            (b, false, _) if b == LEFT | RIGHT | DOWN => '┬',
            (b, false, _) if b == LEFT | RIGHT | UP => '┴',
            (b, true, _) if b == DOWN | RIGHT => '┏',
            (b, true, _) if b == DOWN | LEFT => '┓',
            (b, true, _) if b == UP | RIGHT => '┗',
            (b, true, _) if b == UP | LEFT => '┛',
            (b, true, _) if b == UP | DOWN | RIGHT => '┣',
            (b, true, _) if b == UP | DOWN | LEFT => '┫',
            (b, true, _) if b == LEFT | RIGHT | DOWN => '┳',
            (b, true, _) if b == LEFT | RIGHT | UP => '┻',
            (_, true, _) => '╋',
            _ => '┼',
        }
    }

    /// Arrow-head glyph pointing in `dir`.
    pub fn head(self, head: Head, dir: Dir4) -> char {
        use Dir4::{Down, Left, Right, Up};
        let a = self.ascii;
        match head {
            Head::None => ' ',
            Head::Arrow => match (dir, a) {
                (Right, false) => '▶',
                (Left, false) => '◀',
                (Up, false) => '▲',
                (Down, false) => '▼',
                (Right, true) => '>',
                (Left, true) => '<',
                (Up, true) => '^',
                (Down, true) => 'v',
            },
            Head::Open => match (dir, a) {
                (Right, false) => '▷',
                (Left, false) => '◁',
                (Up, false) => '△',
                (Down, false) => '▽',
                (Right, true) => ')',
                (Left, true) => '(',
                (Up, true) => '^',
                (Down, true) => 'v',
            },
            Head::Triangle => match (dir, a) {
                (Right, false) => '▷',
                (Left, false) => '◁',
                (Up, false) => '△',
                (Down, false) => '▽',
                (Right, true) => '}',
                (Left, true) => '{',
                (Up, true) => 'A',
                (Down, true) => 'V',
            },
            Head::Cross => {
                if a {
                    'x'
                } else {
                    '×'
                }
            }
            Head::Circle => {
                if a {
                    'o'
                } else {
                    '○'
                }
            }
            Head::Diamond => {
                if a {
                    '*'
                } else {
                    '◆'
                }
            }
            Head::HollowDiamond => {
                if a {
                    'o'
                } else {
                    '◇'
                }
            }
        }
    }

    /// Horizontal shaft glyph.
    pub fn hshaft(self, kind: LineKind) -> char {
        self.line(LEFT | RIGHT, kind, kind, false)
    }
}
